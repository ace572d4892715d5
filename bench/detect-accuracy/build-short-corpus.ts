/**
 * Builds the short-text detection corpus: real short texts in many languages, the kind social
 * posts, chat lines and UI strings are made of. Two sources, nothing hand-written:
 *
 * - **CLDR** through the ICU data Node ships (Intl): per locale, the names of languages,
 *   territories, scripts, currencies and calendars, date fields ("week", "day of the week"),
 *   month and weekday names, and relative-time phrases ("yesterday", "next week", "in 2 days").
 * - **Debian**: the strings of bench/corpus/detect.jsonl (build-corpus.ts), re-bucketed by words.
 *
 * Buckets: **short** = 1-3 words and 4-30 characters; medium = other texts up to 100
 * characters; long = up to 400. A text found under two languages is dropped from both (its label
 * is unknowable: "Portugal", "Euro"). The split is by SHA-256 of the text, as the Debian corpus's
 * (a Debian string keeps its split); train.ts reads the dev split, run.ts reports on the test split.
 *
 *   npx tsx bench/detect-accuracy/build-short-corpus.ts [--out bench/corpus/detect-short.jsonl] [--per-kind 60]
 */
import { existsSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { scriptOfLanguage } from '../../src/providers/detector/codes.js'
import { createDetector } from '../../src/providers/detector/index.js'
import { dominantScript, scriptProfile } from '../../src/providers/detector/scripts.js'
import { DEFAULT_CORPUS, DEFAULT_SHORT_CORPUS, readCorpus, shortBucketOf, splitOf, type Sample } from './corpus.js'
import { dedupeKey } from './filters.js'

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: DEFAULT_SHORT_CORPUS },
    debian: { type: 'string', default: DEFAULT_CORPUS },
    'per-kind': { type: 'string', default: '80' }
  }
})
const perKind = Number(args['per-kind'])

/** The ICU locale a detector label is read from (labels are the detector's canonical tags). */
const LOCALE_OF: Record<string, string> = { nb: 'nb', zh: 'zh-Hans', 'zh-Hant': 'zh-Hant', sr: 'sr-Cyrl', 'sr-Latn': 'sr-Latn' }

const detector = createDetector()
await detector.ready()
const labels = detector.languages().filter(l => Intl.DateTimeFormat.supportedLocalesOf([LOCALE_OF[l] ?? l]).length > 0)

const letters = Array.from({ length: 26 }, (_, i) => String.fromCharCode(65 + i))
const REGIONS = letters.flatMap(a => letters.map(b => a + b))
const SCRIPTS = ['Arab', 'Armn', 'Beng', 'Cyrl', 'Deva', 'Ethi', 'Geor', 'Grek', 'Gujr', 'Guru', 'Hang', 'Hani', 'Hans', 'Hant', 'Hebr',
  'Hira', 'Jpan', 'Kana', 'Khmr', 'Knda', 'Kore', 'Laoo', 'Latn', 'Mlym', 'Mong', 'Mymr', 'Orya', 'Sinh', 'Taml', 'Telu', 'Thaa', 'Thai', 'Tibt']
const FIELDS = ['era', 'year', 'quarter', 'month', 'weekOfYear', 'weekday', 'day', 'dayPeriod', 'hour', 'minute', 'second', 'timeZoneName']
const UNITS: Intl.RelativeTimeFormatUnit[] = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second']
const LANGUAGE_CODES = [...new Set(detector.languages().map(l => l.split('-')[0]!))]

/** Every CLDR string of one locale, by kind. */
function cldrStrings (locale: string): Record<string, string[]> {
  const names = (type: Intl.DisplayNamesType, codes: readonly string[]): string[] => {
    const display = new Intl.DisplayNames([locale], { type, fallback: 'none' })
    return codes.flatMap(code => {
      try { return [display.of(code)].filter((s): s is string => typeof s === 'string' && s !== code) } catch { return [] }
    })
  }
  const date = (options: Intl.DateTimeFormatOptions, dates: Date[]): string[] => dates.map(d => new Intl.DateTimeFormat(locale, options).format(d))
  const months = Array.from({ length: 12 }, (_, m) => new Date(Date.UTC(2021, m, 15)))
  const days = Array.from({ length: 7 }, (_, d) => new Date(Date.UTC(2021, 1, 1 + d)))
  const relative = (numeric: 'auto' | 'always', values: number[]): string[] => {
    const format = new Intl.RelativeTimeFormat(locale, { numeric })
    return UNITS.flatMap(unit => values.map(v => format.format(v, unit)))
  }
  return {
    language: names('language', LANGUAGE_CODES),
    region: names('region', REGIONS),
    script: names('script', SCRIPTS),
    currency: names('currency', Intl.supportedValuesOf('currency')),
    calendar: names('calendar', Intl.supportedValuesOf('calendar')),
    field: names('dateTimeField', FIELDS),
    month: date({ month: 'long', timeZone: 'UTC' }, months),
    weekday: date({ weekday: 'long', timeZone: 'UTC' }, days),
    relative: [...relative('auto', [-1, 0, 1]), ...relative('always', [-2, 2])]
  }
}

/** A string written in another script than its language's is a fallback or a foreign name. */
function inScript (text: string, label: string): boolean {
  const script = dominantScript(scriptProfile(text))
  const expected = scriptOfLanguage(label)
  return script === expected || ((expected === 'Jpan' || expected === 'Kore') && script === 'Hani')
}

interface Entry { lang: string, text: string, source: string, split?: Sample['split'] }
const entries: Entry[] = []
for (const label of labels) {
  const locale = LOCALE_OF[label] ?? label
  // ICU answers a locale it lacks from its parent (root): only the locale's own data counts
  if (new Intl.DisplayNames([locale], { type: 'language' }).resolvedOptions().locale.split('-')[0] !== locale.split('-')[0]) continue
  for (const [kind, strings] of Object.entries(cldrStrings(locale))) {
    const seen = new Set<string>()
    const kept = strings.map(s => s.normalize('NFC').trim()).filter(s => {
      if (seen.has(s) || shortBucketOf(s) === undefined || !inScript(s, label)) return false
      seen.add(s)
      return true
    })
    // an even sample over the list (region and currency names are many, months twelve)
    const step = Math.max(1, kept.length / perKind)
    for (let i = 0; i < kept.length; i += step) entries.push({ lang: label, text: kept[Math.floor(i)]!, source: `cldr-${kind}` })
  }
}
const cldrCount = entries.length
if (existsSync(args.debian)) {
  for (const s of readCorpus(args.debian)) entries.push({ lang: s.lang, text: s.text, source: s.source, split: s.split })
} else {
  console.log(`${args.debian} is missing (npm run bench:detect:corpus): CLDR strings only`)
}

// a text found under two languages has no knowable label
const languagesOf = new Map<string, Set<string>>()
for (const e of entries) {
  const key = dedupeKey(e.text)
  const set = languagesOf.get(key) ?? new Set()
  set.add(e.lang)
  languagesOf.set(key, set)
}
const written = new Set<string>()
const samples: Sample[] = []
let ambiguous = 0
for (const e of entries) {
  const key = dedupeKey(e.text)
  if (languagesOf.get(key)!.size > 1) { ambiguous++; continue }
  if (written.has(key)) continue
  written.add(key)
  const bucket = shortBucketOf(e.text)
  if (bucket === undefined) continue
  samples.push({ lang: e.lang, bucket, split: e.split ?? splitOf(e.text), source: e.source, text: e.text })
}
writeFileSync(args.out, samples.map(s => JSON.stringify(s)).join('\n') + '\n')
const count = (f: (s: Sample) => boolean): number => samples.filter(f).length
console.log(`built ${new Date().toISOString().slice(0, 10)}: ${samples.length} samples in ${new Set(samples.map(s => s.lang)).size} languages -> ${args.out}`)
console.log(`CLDR strings ${cldrCount} (${count(s => s.source.startsWith('cldr-'))} kept), dropped as found in two languages: ${ambiguous}`)
console.log(`short ${count(s => s.bucket === 'short')} (CLDR ${count(s => s.bucket === 'short' && s.source.startsWith('cldr-'))}), medium ${count(s => s.bucket === 'medium')}, long ${count(s => s.bucket === 'long')}; test split ${count(s => s.split === 'test')}`)
await detector.close?.()
