/**
 * Builds extra TRAINING-ONLY text for the detector's regression: the gettext catalogs of Debian
 * packages the corpus does not read (GNOME and Xfce applications, command-line tools, VLC,
 * Pidgin, and LibreOffice's catalogs of the near-identical languages: bs/hr/sr/sl, id, gl/es/pt/ca,
 * nb/nn/da/sv, cs/sk); and everyday text: the fortune cookies of Debian's fortunes-* packages (12
 * languages) and the dialogue of Wesnoth's campaigns (their gettext catalogs, ~50 languages), each
 * with a cap of its own. Cleaned and filtered as build-corpus.ts does; a text whose key (lower-cased,
 * no punctuation) is found in the corpus (either split) or the short corpus is dropped, so no
 * test or tune text is trained on; a text found under two languages is dropped from both. At most
 * --per-language texts per language, taken in turn from each package.
 * Output: bench/corpus/detect-train-extra.jsonl (git-ignored), read by train-regression.ts.
 *
 *   npx tsx bench/detect-accuracy/build-training.ts [--per-language 15000] [--out FILE]
 */
import { createHash } from 'node:crypto'
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { scriptOfLanguage } from '../../src/providers/detector/codes.js'
import { dominantScript, scriptProfile } from '../../src/providers/detector/scripts.js'
import { DEFAULT_CORPUS, DEFAULT_POOL, DEFAULT_SHORT_CORPUS, DEFAULT_EXTRA, isEveryday, readCorpus, shortBucketOf, type Sample } from './corpus.js'
import { catalogEntries, filesUnder, labelOf, unpack } from './debian.js'
import { cleanText, dedupeKey, rejection, sentenceRuns } from './filters.js'

/** Packages with gettext catalogs that build-corpus.ts does not read. */
export const EXTRA_PACKAGES = [
  'gnome-calculator', 'gnome-terminal-data', 'file-roller', 'eog', 'gnome-maps', 'gnome-weather', 'gnome-clocks',
  'gnome-calendar', 'gnome-contacts', 'evolution-common', 'evolution-data-server-common', 'network-manager-gnome',
  'gvfs-common', 'gnome-online-accounts', 'gnome-keyring', 'gdm3', 'gnome-session-common', 'cheese-common',
  'brasero-common', 'polari', 'gnome-characters', 'gnome-font-viewer', 'seahorse', 'simple-scan', 'shotwell-common',
  'gucharmap', 'gnome-logs', 'gnome-tweaks', 'dconf-editor', 'gnome-boxes', 'gnome-text-editor', 'gnome-mines',
  'gnome-sudoku', 'mousepad', 'ristretto', 'xfce4-terminal', 'xfce4-session', 'xfdesktop4-data', 'lightdm-gtk-greeter',
  'gparted', 'synaptic', 'transmission-common', 'vlc-l10n', 'pidgin-data', 'mc-data', 'aptitude-common', 'tasksel-data',
  'findutils', 'grep', 'sed', 'diffutils', 'nano', 'procps', 'psmisc', 'sudo', 'parted',
  ...['bs', 'hr', 'sr', 'sl', 'id', 'gl', 'es', 'pt', 'pt-br', 'ca', 'nb', 'nn', 'da', 'sv', 'cs', 'sk'].map(l => `libreoffice-l10n-${l}`)
]

/** Fortune cookie packages (fortune files under usr/share/games/fortunes) and their language; a file named here is in another one. */
export const FORTUNE_PACKAGES: Record<string, { lang: string, files?: Record<string, string> }> = {
  fortunes: { lang: 'en' },
  'fortunes-min': { lang: 'en' },
  'fortunes-de': { lang: 'de' },
  'fortunes-es': { lang: 'es' },
  'fortunes-it': { lang: 'it' },
  'fortunes-pl': { lang: 'pl' },
  'fortunes-ru': { lang: 'ru' },
  'fortunes-cs': { lang: 'cs', files: { 'klasik-sk': 'sk' } },
  'fortunes-bg': { lang: 'bg' },
  'fortunes-br': { lang: 'pt' },
  'fortunes-eo': { lang: 'eo' },
  'fortunes-ga': { lang: 'ga' }
}

/** Wesnoth's campaigns: their catalogs hold the campaigns' dialogue, translated into up to ~50 languages. */
export const WESNOTH_PACKAGES = ['httt', 'trow', 'nr', 'l', 'low', 'ei', 'sof', 'tsg'].map(c => `wesnoth-1.16-${c}`)
const WESNOTH_LOCALE = 'usr/share/games/wesnoth/1.16/locale'

const { values: args } = parseArgs({
  options: {
    'per-language': { type: 'string', default: '15000' },
    out: { type: 'string', default: DEFAULT_EXTRA },
    cache: { type: 'string', default: join(dirname(DEFAULT_CORPUS), 'cache') }
  }
})
const perLanguage = Number(args['per-language'])

// everyday text has a cap of its own beside the catalogs'
// every text of both corpora, either split: none of them may be trained on twice or tested after training
const known = new Set<string>()
for (const path of [DEFAULT_CORPUS, DEFAULT_POOL, DEFAULT_SHORT_CORPUS]) {
  for (const s of readCorpus(path)) known.add(dedupeKey(s.text))
}

interface Candidate { text: string, source: string }
const byLanguage = new Map<string, Map<string, Candidate>>()
// per key, the languages the catalogs have it in, and the languages everyday text has it in (the catalogs' texts are
// judged among the catalogs alone, so that they are what they were before the everyday text came)
const languagesOfKey = new Map<string, Set<string>>()
const everydayLanguagesOfKey = new Map<string, Set<string>>()
const rejected = new Map<string, number>()
const count = (why: string): void => { rejected.set(why, (rejected.get(why) ?? 0) + 1) }

function add (lang: string, raw: string, source: string): void {
  for (const piece of sentenceRuns(cleanText(raw), 400)) {
    if (shortBucketOf(piece) === undefined) continue
    const script = dominantScript(scriptProfile(piece))
    const expected = scriptOfLanguage(lang)
    const why = rejection(piece) ??
      (script === expected || (expected === 'Jpan' && script === 'Hani') || (expected === 'Kore' && script === 'Hani') ? undefined : 'not in the script of its language')
    if (why !== undefined) { count(why); continue }
    const key = dedupeKey(piece)
    if (known.has(key)) { count('in the corpus'); continue }
    let texts = byLanguage.get(lang)
    if (texts === undefined) byLanguage.set(lang, texts = new Map())
    if (!texts.has(key)) texts.set(key, { text: piece, source })
    const keys = isEveryday(source) ? everydayLanguagesOfKey : languagesOfKey
    let langs = keys.get(key)
    if (langs === undefined) keys.set(key, langs = new Set())
    langs.add(lang)
  }
}

function readCatalogs (dir: string, pkg: string, label: (locale: string) => string | undefined): void {
  for (const entry of catalogEntries(dir, label)) {
    add('en', entry.source, pkg)
    if (dedupeKey(cleanText(entry.translation)) !== dedupeKey(cleanText(entry.source))) add(entry.lang, entry.translation, pkg)
  }
}

// LibreOffice names its locales in BCP 47 (pt-BR, sr-Latn)
const officeLabel = (locale: string): string | undefined => locale === 'sr-Latn' ? 'sr-Latn' : labelOf(locale.replace('-', '_'))

/** A package unpacked into the cache; undefined (said on stderr) when it cannot be had. */
function unpacked (pkg: string): string | undefined {
  process.stderr.write(`reading ${pkg}\n`)
  try {
    return unpack(pkg, args.cache)
  } catch (error) {
    process.stderr.write(`  skipped: ${(error as Error).message}\n`)
    return undefined
  }
}

for (const pkg of EXTRA_PACKAGES) {
  const root = unpacked(pkg)
  if (root === undefined) continue
  readCatalogs(join(root, 'usr/share/locale'), pkg, labelOf)
  readCatalogs(join(root, 'usr/lib/libreoffice/program/resource'), pkg, officeLabel)
}

for (const pkg of WESNOTH_PACKAGES) {
  const root = unpacked(pkg)
  if (root !== undefined) readCatalogs(join(root, WESNOTH_LOCALE), pkg, labelOf)
}

// an IRC log's "[12:00] <nick> " or a quote's "  -- Author" is not the text
const CHAT_PREFIX = /^\s*(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*)?(?:<[@+%]?[^<>\s]{1,30}>|\*\s*\S{1,30}|\S{1,30}:(?=\s))\s*/
const ATTRIBUTION = /^\s*(?:--|—|―|~)\s*\S/

/** The cookies of a fortune file (split on "%" lines), each as paragraphs; a chat log's lines are texts of their own. */
function * cookiesOf (text: string): Generator<string> {
  for (const cookie of text.split(/^%\s*$/m)) {
    const lines = cookie.split('\n').filter(line => line.trim() !== '' && !ATTRIBUTION.test(line))
    if (lines.some(line => /^\s*(?:\[?\d{1,2}:\d{2}(?::\d{2})?\]?\s*)?<[@+%]?[^<>\s]{1,30}>/.test(line))) {
      for (const line of lines) yield line.replace(CHAT_PREFIX, '')
    } else {
      yield lines.join(' ')
    }
  }
}

for (const [pkg, { lang, files }] of Object.entries(FORTUNE_PACKAGES)) {
  const root = unpacked(pkg)
  if (root === undefined) continue
  const decoder = new TextDecoder('utf-8', { fatal: true })
  for (const path of filesUnder(join(root, 'usr/share/games/fortunes'), '')) {
    const name = path.split('/').pop()!
    // "name.u8" is the UTF-8 copy of "name" where both are there (fortunes-pl's are empty); .dat is strfile's index
    const u8 = `${path}.u8`
    // off/: the offensive cookies, rot13-encoded; de's "translations" pair English with German; art is pictures
    if (path.includes('/off/') || /^(translations|ascii-?art|art)(\.u8)?$/.test(name)) continue
    if (name.endsWith('.dat') || lstatSync(path).isSymbolicLink() || (existsSync(u8) && !lstatSync(u8).isSymbolicLink() && lstatSync(u8).size > 0)) continue
    let text: string
    try {
      text = decoder.decode(readFileSync(path))
    } catch {
      count('not UTF-8')
      continue
    }
    const fileLang = files?.[name.replace(/\.u8$/, '')] ?? lang
    for (const cookie of cookiesOf(text)) add(fileLang, cookie, pkg)
  }
}

const hashOf = (s: string): string => createHash('sha256').update('extra\0').update(s).digest('hex')
const out: Sample[] = []
const table: string[] = []
for (const [lang, texts] of [...byLanguage.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  const bySource = new Map<string, Candidate[]>()
  for (const [key, c] of texts) {
    const langs = new Set([...languagesOfKey.get(key) ?? [], ...isEveryday(c.source) ? everydayLanguagesOfKey.get(key) ?? [] : []])
    if (langs.size > 1) continue
    bySource.set(c.source, [...(bySource.get(c.source) ?? []), c])
  }
  let taken = 0
  for (const everyday of [false, true]) {
    const queues = [...bySource.entries()].filter(([source]) => isEveryday(source) === everyday).map(([, q]) => q.sort((a, b) => hashOf(a.text).localeCompare(hashOf(b.text))))
    let kind = 0
    for (let i = 0; kind < perLanguage && queues.some(q => i < q.length); i++) {
      for (const q of queues) {
        const c = q[i]
        if (c === undefined || kind >= perLanguage) continue
        out.push({ lang, bucket: shortBucketOf(c.text)!, split: 'dev', source: c.source, text: c.text })
        kind++
      }
    }
    taken += kind
  }
  table.push(`${lang} ${taken}`)
}
writeFileSync(args.out, out.map(s => JSON.stringify(s)).join('\n') + '\n')
console.log(table.join(', '))
console.log(`${out.length} training texts in ${table.length} languages -> ${args.out}`)
console.log(`rejected: ${[...rejected].map(([why, n]) => `${why} ${n}`).join(', ')}`)
