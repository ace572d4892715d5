/** Language codes as the voters spell them, turned into canonical BCP 47 tags. */

/** Codes whose canonical form (per CLDR) is not what the voter means. */
const OVERRIDES: Record<string, string> = {
  // Norwegian texts are nearly always Bokmål; the service answers `nb`
  no: 'nb',
  nor: 'nb',
  // fastText's Wikipedia codes: "als" is Alemannic (not Tosk Albanian), "sh" Serbo-Croatian (kept as evidence only)
  als: 'gsw',
  sh: 'sh',
  hbs: 'sh',
  // CLD2's Montenegrin
  'sr-ME': 'sr',
  // macrolanguage members the voters report separately
  arz: 'ar',
  ary: 'ar',
  pes: 'fa',
  prs: 'fa',
  zsm: 'ms',
  kmr: 'ku'
}

const cache = new Map<string, string | undefined>()

/** The canonical tag for a voter's language code ("iw" -> "he", "eng" -> "en", "no" -> "nb"), undefined for none. */
export function tagOf (code: string): string | undefined {
  let tag = cache.get(code)
  if (tag !== undefined || cache.has(code)) return tag
  tag = OVERRIDES[code]
  // CLD2 also names scripts ("xx-Arab"), jokes ("zzb") and "un"/"und" for unknown: none is a language
  if (tag === undefined && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(code) && !/^(xx|zz|un$|und$)/.test(code)) {
    try {
      tag = Intl.getCanonicalLocales(code)[0]
    } catch {
      tag = undefined
    }
  }
  if (tag !== undefined && tag.startsWith('fa-')) tag = 'fa'
  cache.set(code, tag)
  return tag
}

/** The languages an answer can stand for: Serbo-Croatian for its standards, a language for its script forms. */
const MEANINGS: Record<string, readonly string[]> = {
  sh: ['hr', 'bs', 'sr', 'sr-Latn'],
  sr: ['sr', 'sr-Latn'],
  zh: ['zh', 'zh-Hant']
}

/** The base language subtag of a tag ("zh-Hant" -> "zh"). */
export function baseOf (tag: string): string {
  const dash = tag.indexOf('-')
  return dash === -1 ? tag : tag.slice(0, dash)
}

/** The languages a voter's answer may stand for (itself, or its standards and script forms). */
export function meaningsOf (answer: string): readonly string[] {
  return MEANINGS[answer] ?? [answer]
}

/** Whether a voter's answer may stand for one of the allowed base languages. */
export function allowedAnswer (answer: string, allowedBases: ReadonlySet<string>): boolean {
  if (allowedBases.has(baseOf(answer))) return true
  const meanings = MEANINGS[answer]
  return meanings !== undefined && meanings.some(m => allowedBases.has(baseOf(m)))
}

const scriptCache = new Map<string, string>()

/** The script a language is written in ("sr" -> "Cyrl", "sr-Latn" -> "Latn", "zh-Hant" -> "Hani", "ja" -> "Jpan"). */
export function scriptOfLanguage (tag: string): string {
  let script = scriptCache.get(tag)
  if (script === undefined) {
    try {
      script = new Intl.Locale(tag).maximize().script ?? ''
    } catch {
      script = ''
    }
    if (script === 'Hans' || script === 'Hant') script = 'Hani'
    scriptCache.set(tag, script)
  }
  return script
}
