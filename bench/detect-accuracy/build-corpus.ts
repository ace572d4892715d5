/**
 * Builds the labelled language-detection corpus from real text shipped in Debian packages:
 * gettext catalogs (.mo), translated manual pages and GNOME help pages. Packages are fetched
 * with `apt-get download` and unpacked with `dpkg-deb -x` into a cache directory; nothing is
 * installed. Output: bench/corpus/detect.jsonl (git-ignored), one Sample per line.
 *
 *   npx tsx bench/detect-accuracy/build-corpus.ts [--per-cell 200] [--min-cell 60] [--out FILE]
 */
import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { BUCKETS, DEFAULT_CORPUS, DEFAULT_POOL, bucketOf, splitOf, type Bucket, type Sample } from './corpus.js'
import { helpPageParagraphs, manPageParagraphs } from './documents.js'
import { cleanText, dedupeKey, rejection, sentenceRuns } from './filters.js'
import { dominantScript, scriptProfile } from '../../src/providers/detector/scripts.js'
import { scriptOfLanguage } from '../../src/providers/detector/codes.js'
import { catalogEntries, filesUnder, labelOf, listDir, unpack } from './debian.js'

/** Packages whose gettext catalogs cover many languages (UI strings, settings descriptions, messages). */
const CATALOG_PACKAGES = [
  'cinnamon-l10n', 'cinnamon-control-center-data', 'nemo-data', 'krita-l10n', 'gsettings-desktop-schemas',
  'libgtk-3-common', 'libglib2.0-data', 'gnome-control-center-data', 'nautilus-data', 'gnome-shell-common',
  'gnome-software-common', 'gnome-disk-utility', 'gnome-system-monitor', 'baobab', 'evince-common',
  'gedit-common', 'totem-common', 'rhythmbox-data', 'xfce4-panel', 'xfce4-settings', 'thunar-data',
  'mate-desktop-common', 'apt', 'dpkg', 'debconf-i18n', 'coreutils', 'tar', 'wget', 'e2fsprogs-l10n',
  'libc-l10n', 'gnupg-l10n', 'util-linux-locales'
]
/** Packages of translated help (Mallard pages under /usr/share/help/<locale>/). */
const HELP_PACKAGES = ['gnome-user-docs']
/** Manual pages: English and the translations of manpages-l10n and friends. */
const MANUAL_PACKAGES = ['manpages', ...['cs', 'da', 'de', 'el', 'es', 'fi', 'fr', 'hu', 'id', 'it', 'ja', 'mk', 'nb', 'nl',
  'pl', 'pt-br', 'ro', 'ru', 'sr', 'sv', 'tr', 'uk', 'vi', 'zh'].map(l => `manpages-${l}`)]
const MAN_PAGES_PER_LOCALE = 150

const { values: args } = parseArgs({
  options: {
    'per-cell': { type: 'string', default: '200' },
    'min-cell': { type: 'string', default: '60' },
    out: { type: 'string', default: DEFAULT_CORPUS },
    'pool-out': { type: 'string', default: DEFAULT_POOL },
    'pool-per-cell': { type: 'string', default: '3000' },
    cache: { type: 'string', default: join(dirname(DEFAULT_CORPUS), 'cache') }
  }
})
const perCell = Number(args['per-cell'])
const minCell = Number(args['min-cell'])

interface Candidate { text: string, source: string }
const byLanguage = new Map<string, Map<string, Candidate>>()
const languagesOfKey = new Map<string, Set<string>>()
const rejected = new Map<string, number>()

function add (lang: string, raw: string, source: string): void {
  const text = cleanText(raw)
  for (const piece of sentenceRuns(text, 400)) {
    if (bucketOf(piece) === undefined) continue
    const why = rejection(piece) ?? wrongScript(piece, lang)
    if (why !== undefined) {
      rejected.set(why, (rejected.get(why) ?? 0) + 1)
      continue
    }
    const key = dedupeKey(piece)
    let texts = byLanguage.get(lang)
    if (texts === undefined) byLanguage.set(lang, texts = new Map())
    if (!texts.has(key)) texts.set(key, { text: piece, source })
    let langs = languagesOfKey.get(key)
    if (langs === undefined) languagesOfKey.set(key, langs = new Set())
    langs.add(lang)
  }
}

// a catalog string in another script than its language's is an untranslated or foreign string
function wrongScript (text: string, lang: string): string | undefined {
  const script = dominantScript(scriptProfile(text))
  const expected = scriptOfLanguage(lang)
  if (script === expected || (expected === 'Jpan' && script === 'Hani') || (expected === 'Kore' && script === 'Hani')) return undefined
  return 'not in the script of its language'
}

// salted so the selection order is independent of the dev/test split, which hashes the bare text
function hashOf (s: string): string {
  return createHash('sha256').update('order\0').update(s).digest('hex')
}

function readCatalogs (root: string, pkg: string): void {
  for (const entry of catalogEntries(join(root, 'usr/share/locale'))) {
    add('en', entry.source, pkg)
    if (dedupeKey(cleanText(entry.translation)) !== dedupeKey(cleanText(entry.source))) add(entry.lang, entry.translation, pkg)
  }
}

function readHelp (root: string, pkg: string): void {
  const helpDir = join(root, 'usr/share/help')
  for (const locale of listDir(helpDir)) {
    const lang = labelOf(locale)
    if (lang === undefined) continue
    for (const file of filesUnder(join(helpDir, locale), '.page')) {
      for (const paragraph of helpPageParagraphs(file)) add(lang, paragraph, pkg)
    }
  }
}

function readManuals (root: string, pkg: string): void {
  const manDir = join(root, 'usr/share/man')
  const localeDirs = listDir(manDir).filter(d => !d.startsWith('man')).map(d => ({ dir: join(manDir, d), locale: d }))
  if (listDir(manDir).some(d => d.startsWith('man'))) localeDirs.push({ dir: manDir, locale: 'C' })
  for (const { dir, locale } of localeDirs) {
    const lang = labelOf(locale)
    if (lang === undefined) continue
    const pages = listDir(dir).filter(d => /^man\d/.test(d)).flatMap(section => listDir(join(dir, section)).map(f => join(dir, section, f)))
      .sort((a, b) => hashOf(a).localeCompare(hashOf(b))).slice(0, MAN_PAGES_PER_LOCALE)
    for (const page of pages) {
      for (const paragraph of manPageParagraphs(page)) add(lang, paragraph, pkg)
    }
  }
}

/** Up to `n` candidates, taken in turn from each source package (in hash order within one) so no package dominates. */
function balanced (candidates: Candidate[], n: number): Candidate[] {
  const bySource = new Map<string, Candidate[]>()
  for (const c of candidates) {
    const list = bySource.get(c.source) ?? []
    list.push(c)
    bySource.set(c.source, list)
  }
  const queues = [...bySource.values()].map(list => list.sort((a, b) => hashOf(a.text).localeCompare(hashOf(b.text))))
  const chosen: Candidate[] = []
  for (let i = 0; chosen.length < n && queues.some(q => i < q.length); i++) {
    for (const q of queues) {
      const c = q[i]
      if (c !== undefined && chosen.length < n) chosen.push(c)
    }
  }
  return chosen
}

const cache = args.cache
const readers: Array<[string[], (root: string, pkg: string) => void]> = [
  [CATALOG_PACKAGES, readCatalogs], [HELP_PACKAGES, readHelp], [MANUAL_PACKAGES, readManuals]
]
for (const [packages, read] of readers) {
  for (const pkg of packages) {
    process.stderr.write(`reading ${pkg}\n`)
    read(unpack(pkg, cache), pkg)
  }
}

const samples: Sample[] = []
// every dev-split string (not only the balanced selection): training data for the detector's models
const pool: Sample[] = []
const table: string[] = []
const dropped: string[] = []
for (const [lang, texts] of [...byLanguage.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  const cells = new Map<Bucket, Candidate[]>(BUCKETS.map(b => [b.name, []]))
  for (const [key, candidate] of texts) {
    // a text found under two languages is untranslated or shared; its label is unknowable
    if ((languagesOfKey.get(key)?.size ?? 0) > 1) continue
    const bucket = bucketOf(candidate.text)
    if (bucket !== undefined) cells.get(bucket)?.push(candidate)
  }
  const sizes = BUCKETS.map(b => cells.get(b.name)?.length ?? 0)
  if (Math.min(...sizes) < minCell) {
    dropped.push(`${lang} (${sizes.join('/')})`)
    continue
  }
  const counts: number[] = []
  for (const b of BUCKETS) {
    const chosen = balanced(cells.get(b.name) ?? [], perCell)
    counts.push(chosen.length)
    for (const c of chosen) samples.push({ lang, bucket: b.name, split: splitOf(c.text), source: c.source, text: c.text })
    const devOnly = (cells.get(b.name) ?? []).filter(c => splitOf(c.text) === 'dev')
    for (const c of balanced(devOnly, Number(args['pool-per-cell']))) pool.push({ lang, bucket: b.name, split: 'dev', source: c.source, text: c.text })
  }
  table.push(`${lang.padEnd(8)} ${counts.map(n => String(n).padStart(5)).join(' ')}   (available ${sizes.join('/')})`)
}

mkdirSync(dirname(args.out), { recursive: true })
writeFileSync(args.out, samples.map(s => JSON.stringify(s)).join('\n') + '\n')
writeFileSync(args['pool-out'], pool.map(s => JSON.stringify(s)).join('\n') + '\n')
console.log('lang     short medium  long')
console.log(table.join('\n'))
console.log(`\n${table.length} languages, ${samples.length} samples (${samples.filter(s => s.split === 'test').length} test, ${samples.filter(s => s.split === 'dev').length} dev) -> ${args.out}`)
console.log(`dev pool: ${pool.length} samples -> ${args['pool-out']}`)
console.log(`languages below ${minCell} per bucket, left out: ${dropped.join(', ')}`)
console.log(`rejected strings: ${[...rejected].map(([why, n]) => `${why} ${n}`).join(', ')}`)
