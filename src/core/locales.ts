/**
 * Locale data: the locales CLDR knows, their parents (CLDR inheritance), likely
 * region and script, and display names in any language Intl has names for.
 *
 * Which locales exist: cldr-core's availableLocales "full" (its "modern" list is
 * empty; the modern tier ships in other packages) plus defaultContent (en-US,
 * pt-BR, zh-Hant-TW...: locales CLDR keeps empty because their parent holds
 * their data), less `und`, the root locale, which is what `parent: "root"` names.
 *
 * A tag that is not one of those ids still names one when CLDR's lookup would
 * reach it through likely subtags (UTS #35 "Bundle vs Item Lookup"): zh-TW is
 * zh-Hant-TW, sr-ME is sr-Latn-ME, en-Latn-US is en-US, ca-valencia is
 * ca-ES-valencia. It is answered under the asked tag, with the parent of the
 * locale it names. Two more kinds resolve, so that every language translation
 * lists is a locale here: a locale with variants CLDR has no data for
 * (oc-aranes, parent oc, as the lookup truncates), and a bare language CLDR
 * knows by its likely subtags and names but has no locale for (frp, parent
 * root; not "aaa", a code of the likely subtags only). Anything else is
 * unknown, even a plausible pair such as de-US: CLDR has no locale for it.
 *
 * Parent (UTS #35 "Parent Locales", CLDR 45+): an explicit parentLocales entry
 * first; else a language-script locale whose script is not its language's likely
 * script inherits from root (the `nonlikelyScript` locale rule); else the last
 * subtag is truncated; a bare language's parent is root. Both `und` and `root`
 * in the data are answered "root".
 */
import availableLocales from 'cldr-core/availableLocales.json' with { type: 'json' }
import defaultContent from 'cldr-core/defaultContent.json' with { type: 'json' }
import likelySubtags from 'cldr-core/supplemental/likelySubtags.json' with { type: 'json' }
import parentLocales from 'cldr-core/supplemental/parentLocales.json' with { type: 'json' }
import { setImmediate as nextTurn } from 'node:timers/promises'
import { NotFoundError, invalidField, type FieldPath } from '../errors.js'
import { baseLanguage, canonicalTag, tryCanonicalTag } from './languages.js'

export interface LocaleInfo {
  tag: string
  name: string
  region: { tag: string, name: string }
  script: { tag: string, name: string }
  base: string
  parent: string
}

const ROOT = 'root'
const ENGLISH = 'en'
/** Display languages whose full list is kept; a route serves few of them. */
const LISTS_KEPT = 16
const NAMERS_KEPT = 64

const LOCALE_IDS: ReadonlySet<string> = new Set(
  [...availableLocales.availableLocales.full, ...defaultContent.defaultContent].filter(id => id !== 'und'))
const EXPLICIT_PARENTS: Readonly<Record<string, string>> = parentLocales.supplemental.parentLocales.parentLocale
const NONLIKELY_SCRIPT_PARENT: string = parentLocales.supplemental.parentLocales._localeRules.parentLocale.nonlikelyScript
const LIKELY: Readonly<Record<string, string>> = likelySubtags.supplemental.likelySubtags

/** CLDR writes the root locale both ways. */
function rootName (id: string): string {
  return id === 'und' ? ROOT : id
}

function isScript (subtag: string): boolean {
  return /^[A-Z][a-z]{3}$/.test(subtag)
}

/** The CLDR parent of a CLDR locale id, by the algorithm in the module comment. */
function parentOf (id: string): string {
  const explicit = EXPLICIT_PARENTS[id]
  if (explicit !== undefined) return rootName(explicit)
  // CLDR's en_US_POSIX is written "en-US-u-va-posix" by Intl: its parent is the tag without the extension (en-US), not a truncated "en-US-u-va"
  const extension = id.search(/-[a-wyz]-/)
  if (extension > 0) return id.slice(0, extension)
  const subtags = id.split('-')
  const [language, second] = subtags
  if (subtags.length === 1 || language === undefined) return ROOT
  if (subtags.length === 2 && second !== undefined && isScript(second)) {
    const likelyScript = LIKELY[language]?.split('-')[1]
    if (likelyScript !== undefined && second !== likelyScript) return rootName(NONLIKELY_SCRIPT_PARENT)
  }
  return subtags.slice(0, -1).join('-')
}

/**
 * The locale id a canonical tag names, undefined when none: a CLDR locale id, directly or through
 * its likely script or region (zh-TW is zh-Hant-TW, ca-valencia is ca-ES-valencia); a CLDR locale
 * with variants CLDR has no data for (oc-aranes: its parent is oc, as CLDR's lookup truncates); or
 * a language CLDR knows (likely subtags) but has no locale for (frp, Arpitan: its parent is root).
 */
function localeIdOf (tag: string): string | undefined {
  if (LOCALE_IDS.has(tag)) return tag
  const locale = new Intl.Locale(tag)
  // no CLDR locale carries extensions or private use
  if (locale.baseName !== tag) return undefined
  const language = baseLanguage(tag)
  // "und" is undetermined: the root locale is the parent of all, not an entry of its own
  if (language === 'und') return undefined
  const { script, region } = locale
  const variants = tag.split('-').slice(1 + (script === undefined ? 0 : 1) + (region === undefined ? 0 : 1))
  const likely = new Intl.Locale(join(language, region)).maximize()
  const likelyScript = likely.script
  const aliases = script === undefined
    ? [join(language, likelyScript, region, ...variants)]
    : script === likelyScript ? [join(language, region, ...variants)] : []
  // a variant belongs to a region ("valencia" is Spain's): CLDR keys it with the region spelled out
  if (variants.length > 0 && region === undefined && likely.region !== undefined && (script === undefined || script === likelyScript)) {
    aliases.push(join(language, likely.region, ...variants))
  }
  const alias = aliases.find(id => LOCALE_IDS.has(id))
  if (alias !== undefined) return alias
  if (variants.length > 0) return localeIdOf(join(language, script, region)) === undefined ? undefined : tag
  // a language CLDR names: its likely subtags alone list codes with no locale and no name ("aaa", "nil")
  return script === undefined && region === undefined && LIKELY[language] !== undefined && ENGLISH_NAMES.language.of(language) !== undefined ? tag : undefined
}

function join (...subtags: Array<string | undefined>): string {
  return subtags.filter(s => s !== undefined).join('-')
}

type NameType = 'language' | 'region' | 'script'

/** Names of languages, regions and scripts in one display language, English where it has none. */
interface Namer {
  /** The display language Intl resolved ("en" when it has no names for the one asked). */
  readonly locale: string
  name (type: NameType, code: string): string
}

function displayNames (display: string, fallback: 'none' | 'code'): Record<NameType, Intl.DisplayNames> {
  const options = { languageDisplay: 'standard', fallback } as const
  return {
    language: new Intl.DisplayNames([display, ENGLISH], { ...options, type: 'language' }),
    region: new Intl.DisplayNames([display, ENGLISH], { ...options, type: 'region' }),
    script: new Intl.DisplayNames([display, ENGLISH], { ...options, type: 'script' })
  }
}

const ENGLISH_NAMES = displayNames(ENGLISH, 'none')

/**
 * The display language's name, else (it has no name for the language: "cic" in French) the English
 * name of the language in the display language's pattern around its own names of the rest:
 * "Chickasaw (États-Unis)", else the English one, else (CLDR has no name for the language in
 * either: apc, skr...) the display language's pattern around the codes: "lld (Italie)".
 */
function createNamer (display: string): Namer {
  const own = displayNames(display, 'none')
  const spelled = displayNames(display, 'code')
  /** "cic (États-Unis)" with the English names for the codes the display language has no name for. */
  const mixed = (code: string): string | undefined => {
    const [language, ...rest] = code.split('-')
    const english = ENGLISH_NAMES.language.of(language!)
    const around = spelled.language.of(code)
    // the pattern spells the code itself first ("cic (États-Unis)"), not a name that starts like it ("occitan (ARANES)")
    if (english === undefined || around === undefined || around === language || !around.startsWith(language!) || /\p{L}/u.test(around[language!.length] ?? '')) return undefined
    let name = english + around.slice(language!.length)
    const script = rest.find(subtag => /^[A-Z][a-z]{3}$/.test(subtag))
    const scriptName = script === undefined || own.script.of(script) !== undefined ? undefined : ENGLISH_NAMES.script.of(script)
    // a plain string replacement: the code is the client's (never a pattern)
    if (scriptName !== undefined) name = name.replace(script!, scriptName)
    return name
  }
  return {
    locale: own.language.resolvedOptions().locale,
    name: (type, code) => own[type].of(code) ?? (type === 'language' ? mixed(code) : undefined) ?? ENGLISH_NAMES[type].of(code) ?? titledVariants(spelled[type].of(code) ?? code, code)
  }
}

/** A name spelled around codes, its variants written as names ("Occitan (ARANES)" -> "Occitan (Aranes)"). */
function titledVariants (name: string, tag: string): string {
  let titled = name
  for (const subtag of tag.split('-').slice(1)) {
    // variants are 5-8 letters (or a digit and 3 more): regions and scripts have names of their own
    if (!/^[a-z][a-z\d]{4,7}$/i.test(subtag)) continue
    const word = subtag.toUpperCase()
    titled = titled.replace(new RegExp(`\\b${word}\\b`, 'g'), word[0] + word.slice(1).toLowerCase())
  }
  return titled
}

/** Adds to a map kept as least-recently-used: the oldest entry goes past `limit`. */
function remember<V> (cache: Map<string, V>, key: string, value: V, limit: number): V {
  cache.set(key, value)
  if (cache.size > limit) cache.delete(cache.keys().next().value as string)
  return value
}

/** Reads a least-recently-used map, marking the entry as just used. */
function recall<V> (cache: Map<string, V>, key: string): V | undefined {
  const value = cache.get(key)
  if (value !== undefined) {
    cache.delete(key)
    cache.set(key, value)
  }
  return value
}

const namers = new Map<string, Namer>()

/**
 * The namer for a display tag; a malformed one, or one in whose language Intl has no names ("xx",
 * "frp": names would silently be English), is a 400 at display.
 */
function namerFor (display: string | undefined): Namer {
  const tag = display === undefined ? ENGLISH : canonicalTag(display, ['display'])
  const namer = recall(namers, tag) ?? createNamer(tag)
  if (baseLanguage(namer.locale) !== baseLanguage(tag)) {
    throw invalidField(['display'], `no names are known in "${tag}"; use a language CLDR has names in ("fr", "pt-BR", "zh-Hant"), or leave display out for English`)
  }
  return remember(namers, tag, namer, NAMERS_KEPT)
}

/** The English name of a language tag, as GET /language/locale/{tag} gives it ("Portuguese (Brazil)"). */
export function languageName (tag: string): string {
  const canonical = tryCanonicalTag(tag)
  return canonical === undefined ? tag : namerFor(undefined).name('language', canonical)
}

/** The answer for a canonical tag that names CLDR locale `id`. */
function localeInfo (tag: string, id: string, namer: Namer): LocaleInfo {
  const likely = new Intl.Locale(tag).maximize()
  // "ZZ" and "Zzzz" are CLDR's unknown region and script; every CLDR locale maximizes to known ones
  const region = likely.region ?? 'ZZ'
  const script = likely.script ?? 'Zzzz'
  return Object.freeze({
    tag,
    name: namer.name('language', tag),
    region: Object.freeze({ tag: region, name: namer.name('region', region) }),
    script: Object.freeze({ tag: script, name: namer.name('script', script) }),
    base: baseLanguage(tag),
    parent: parentOf(id)
  })
}

/** Every locale id, sorted by code unit so the order never depends on the runtime's collation. */
const SORTED_IDS = [...LOCALE_IDS].sort((a, b) => a < b ? -1 : a > b ? 1 : 0)
const lists = new Map<string, readonly LocaleInfo[]>()
/** Lists being built, by display locale: concurrent requests for one share its build. */
const building = new Map<string, Promise<readonly LocaleInfo[]>>()
/** Locales named per turn of the event loop while a list is built: all ~1,000 in one piece stalled every other request (docs/benchmarks.md, Hardening). */
const BUILD_CHUNK = 50

/**
 * One locale: a malformed tag is a 400 at `pointer` (default "/tag"), a well-formed one CLDR has
 * no locale for is a 404; extensions are left out (en-US-u-ca-buddhist is en-US, and answered so). `display` (a BCP 47 tag, 400 at "/display" when malformed) gives the
 * names in that language, in English where Intl has none.
 */
export function getLocale (tag: string, options: { display?: string, path?: FieldPath } = {}): LocaleInfo {
  // extensions and private use ("-u-ca-buddhist", "-x-...") choose formats within a locale, not another locale
  const canonical = new Intl.Locale(canonicalTag(tag, options.path ?? ['tag'])).baseName
  const id = localeIdOf(canonical)
  if (id === undefined) throw new NotFoundError(`CLDR has no locale "${canonical}"; GET /language/locales lists them`)
  return localeInfo(canonical, id, namerFor(options.display))
}

/**
 * Every locale CLDR knows, sorted by tag. The same frozen array comes back for the same display
 * language, so a caller may key derived data (an ETag) on it. A list not kept is built a chunk per
 * turn of the event loop, so other requests are served meanwhile.
 */
export async function listLocales (options: { display?: string } = {}): Promise<readonly LocaleInfo[]> {
  const namer = namerFor(options.display)
  const kept = recall(lists, namer.locale)
  if (kept !== undefined) return kept
  let build = building.get(namer.locale)
  if (build === undefined) {
    build = (async () => {
      const list: LocaleInfo[] = []
      for (let i = 0; i < SORTED_IDS.length; i += BUILD_CHUNK) {
        if (i > 0) await nextTurn()
        for (const id of SORTED_IDS.slice(i, i + BUILD_CHUNK)) list.push(localeInfo(id, id, namer))
      }
      return remember(lists, namer.locale, Object.freeze(list), LISTS_KEPT)
    })().finally(() => building.delete(namer.locale))
    building.set(namer.locale, build)
  }
  return await build
}
