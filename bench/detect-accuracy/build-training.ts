/**
 * Builds extra TRAINING-ONLY text for the detector's regression: the gettext catalogs of Debian
 * packages the corpus does not read (GNOME and Xfce applications, command-line tools, VLC,
 * Pidgin, and LibreOffice's catalogs of the near-identical languages: bs/hr/sr/sl, id, gl/es/pt/ca,
 * nb/nn/da/sv, cs/sk). Cleaned and filtered as build-corpus.ts does; a text whose key (lower-cased,
 * no punctuation) is found in the corpus (either split) or the short corpus is dropped, so no
 * test or tune text is trained on; a text found under two languages is dropped from both. At most
 * --per-language texts per language, taken in turn from each package.
 * Output: bench/corpus/detect-train-extra.jsonl (git-ignored), read by train-regression.ts.
 *
 *   npx tsx bench/detect-accuracy/build-training.ts [--per-language 15000] [--out FILE]
 */
import { createHash } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { scriptOfLanguage } from '../../src/providers/detector/codes.js'
import { dominantScript, scriptProfile } from '../../src/providers/detector/scripts.js'
import { DEFAULT_CORPUS, DEFAULT_POOL, DEFAULT_SHORT_CORPUS, DEFAULT_EXTRA, readCorpus, shortBucketOf, type Sample } from './corpus.js'
import { catalogEntries, labelOf, unpack } from './debian.js'
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

const { values: args } = parseArgs({
  options: {
    'per-language': { type: 'string', default: '15000' },
    out: { type: 'string', default: DEFAULT_EXTRA },
    cache: { type: 'string', default: join(dirname(DEFAULT_CORPUS), 'cache') }
  }
})
const perLanguage = Number(args['per-language'])

// every text of both corpora, either split: none of them may be trained on twice or tested after training
const known = new Set<string>()
for (const path of [DEFAULT_CORPUS, DEFAULT_POOL, DEFAULT_SHORT_CORPUS]) {
  for (const s of readCorpus(path)) known.add(dedupeKey(s.text))
}

interface Candidate { text: string, source: string }
const byLanguage = new Map<string, Map<string, Candidate>>()
const languagesOfKey = new Map<string, Set<string>>()
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
    let langs = languagesOfKey.get(key)
    if (langs === undefined) languagesOfKey.set(key, langs = new Set())
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

for (const pkg of EXTRA_PACKAGES) {
  process.stderr.write(`reading ${pkg}\n`)
  let root: string
  try {
    root = unpack(pkg, args.cache)
  } catch (error) {
    process.stderr.write(`  skipped: ${(error as Error).message}\n`)
    continue
  }
  readCatalogs(join(root, 'usr/share/locale'), pkg, labelOf)
  readCatalogs(join(root, 'usr/lib/libreoffice/program/resource'), pkg, officeLabel)
}

const hashOf = (s: string): string => createHash('sha256').update('extra\0').update(s).digest('hex')
const out: Sample[] = []
const table: string[] = []
for (const [lang, texts] of [...byLanguage.entries()].sort(([a], [b]) => a.localeCompare(b))) {
  const bySource = new Map<string, Candidate[]>()
  for (const [key, c] of texts) {
    if ((languagesOfKey.get(key)?.size ?? 0) > 1) continue
    bySource.set(c.source, [...(bySource.get(c.source) ?? []), c])
  }
  const queues = [...bySource.values()].map(q => q.sort((a, b) => hashOf(a.text).localeCompare(hashOf(b.text))))
  let taken = 0
  for (let i = 0; taken < perLanguage && queues.some(q => i < q.length); i++) {
    for (const q of queues) {
      const c = q[i]
      if (c === undefined || taken >= perLanguage) continue
      out.push({ lang, bucket: shortBucketOf(c.text)!, split: 'dev', source: c.source, text: c.text })
      taken++
    }
  }
  table.push(`${lang} ${taken}`)
}
writeFileSync(args.out, out.map(s => JSON.stringify(s)).join('\n') + '\n')
console.log(table.join(', '))
console.log(`${out.length} training texts in ${table.length} languages -> ${args.out}`)
console.log(`rejected: ${[...rejected].map(([why, n]) => `${why} ${n}`).join(', ')}`)
