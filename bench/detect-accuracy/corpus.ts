/** The labelled detection corpus: its record shape, length buckets, dev/test split and reader. */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export type Bucket = 'short' | 'medium' | 'long'
export type Split = 'dev' | 'test'

export interface Sample {
  /** Expected answer, a canonical BCP 47 tag. */
  lang: string
  bucket: Bucket
  split: Split
  /** The Debian package the text comes from. */
  source: string
  text: string
}

export const BUCKETS: Array<{ name: Bucket, min: number, max: number }> = [
  { name: 'short', min: 10, max: 30 },
  { name: 'medium', min: 31, max: 100 },
  { name: 'long', min: 101, max: 400 }
]

/**
 * The languages the headline figures are about: the 60 of eld's model (those Debian has text
 * for) and the members of the hard pairs (bs, sr-Latn, gl, id, zh-Hant). Other languages of the
 * corpus are reported apart as the long tail.
 */
export const CORE_LANGUAGES = new Set(['ar', 'az', 'be', 'bg', 'bs', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'eu', 'fa',
  'fi', 'fr', 'gl', 'he', 'hr', 'hu', 'hy', 'id', 'is', 'it', 'ja', 'ko', 'lt', 'lv', 'ms', 'nb', 'nl', 'pl', 'pt', 'ro', 'ru',
  'sk', 'sl', 'sq', 'sr', 'sr-Latn', 'sv', 'th', 'tr', 'uk', 'vi', 'zh', 'zh-Hant'])

/** The core languages' weight in the trainers' tune accuracy (the long tail has the rest). */
export const CORE_SHARE = 0.97

/**
 * Accuracy of `detect` on samples, core and long-tail languages weighted by CORE_SHARE.
 * `reading` is told each text before it is detected (the trainers' voters replay their answers to it).
 */
export function weightedAccuracy (detect: (text: string) => ReadonlyArray<{ language: string }>, samples: readonly Sample[], reading: (text: string) => void = () => {}): number {
  const right = { core: 0, tail: 0 }
  const all = { core: 0, tail: 0 }
  for (const s of samples) {
    reading(s.text)
    const kind = CORE_LANGUAGES.has(s.lang) ? 'core' : 'tail'
    all[kind]++
    if (detect(s.text)[0]?.language === s.lang) right[kind]++
  }
  return CORE_SHARE * right.core / Math.max(1, all.core) + (1 - CORE_SHARE) * right.tail / Math.max(1, all.tail)
}

export const DEFAULT_CORPUS = fileURLToPath(new URL('../corpus/detect.jsonl', import.meta.url))
/** Every dev-split string found (not only the balanced selection), for training. */
export const DEFAULT_POOL = fileURLToPath(new URL('../corpus/dev-pool.jsonl', import.meta.url))

/** Whether an extra training text's source is everyday text (fortune cookies, a game's dialogue) rather than a program's interface. */
export const isEveryday = (source: string): boolean => source.startsWith('fortunes') || source.startsWith('wesnoth')

/** Extra training-only text (build-training.ts): catalogs of packages the corpus does not read, none of its texts. */
export const DEFAULT_EXTRA = fileURLToPath(new URL('../corpus/detect-train-extra.jsonl', import.meta.url))

/** The short-text corpus (build-short-corpus.ts): CLDR names and phrases, and the Debian strings, by words. */
export const DEFAULT_SHORT_CORPUS = fileURLToPath(new URL('../corpus/detect-short.jsonl', import.meta.url))

/**
 * The bucket of a text in the short-text corpus: short = 1-3 words and 4-30 characters (code
 * points; a run without spaces, as Chinese is written, is one word), medium = other texts up to
 * 100 characters, long = up to 400; undefined under 4 characters or over 400.
 */
export function shortBucketOf (text: string): Bucket | undefined {
  const length = [...text.trim()].length
  if (length < 4 || length > 400) return undefined
  const words = text.split(/\s+/).filter(w => /\p{L}/u.test(w)).length
  if (words >= 1 && words <= 3 && length <= 30) return 'short'
  return length <= 100 ? 'medium' : 'long'
}

/** The length bucket of a text (in code points), or undefined outside 10-400. */
export function bucketOf (text: string): Bucket | undefined {
  const length = [...text].length
  return BUCKETS.find(b => length >= b.min && length <= b.max)?.name
}

/**
 * The split a text belongs to, fixed by its content: 30% dev (tuning, calibration), 70% test
 * (reported figures). Hashing the text keeps a string in the same split across rebuilds.
 */
export function splitOf (text: string): Split {
  const byte = createHash('sha256').update(text).digest()[0] ?? 0
  return byte < 77 ? 'dev' : 'test'
}

/** Reads a corpus file, optionally keeping only one split. */
export function readCorpus (path = DEFAULT_CORPUS, split?: Split): Sample[] {
  if (!existsSync(path)) throw new Error(`${path} does not exist: build it with npm run bench:detect:corpus`)
  const samples = readFileSync(path, 'utf8').split('\n').filter(line => line !== '')
    .map(line => JSON.parse(line) as Sample)
  return split === undefined ? samples : samples.filter(s => s.split === split)
}
