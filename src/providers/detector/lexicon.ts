/**
 * The lexicon's compact form (lexicon.bin, written by bench/detect-accuracy/train-lexicon.ts): its
 * ~155,000 words and trigrams live in one string and a few typed arrays, found through an
 * open-addressing hash table, so loading it makes no object per feature (as JSON did: ~100 MB
 * of transient garbage and ~45 MB of Maps and arrays kept).
 *
 * Layout: "LEX1", a uint32 (little-endian) length, that many bytes of JSON header; the keys in
 * UTF-8, each followed by "\n" (words, then trigrams); `count + 1` uint32 starts of each key's
 * entries; per entry a uint8 language index, then per entry a uint8 value v standing for
 * (zero - v) / scale: -10 * log probability for the lexicon (zero 0, scale 10); the regression
 * (regression.bin, train-regression.ts) stores signed weights the same way around zero 128.
 */
import type { Lexicon } from './model.js'

const MAGIC = 'LEX1'
/** Log probabilities are stored in tenths of a nat, as train-lexicon.ts rounds them. */
const SCALE = 10

/** How values are stored: v stands for (zero - v) / scale. */
export interface Quantization { zero: number, scale: number }
const LOG_PROBABILITY: Quantization = { zero: 0, scale: SCALE }

interface Header {
  languages: string[]
  zero?: number
  scale?: number
  backoff: number[]
  trigramBackoff: number[]
  weight: number[]
  trigramWeight: number[]
  words: number
  trigrams: number
  entries: number
  keyBytes: number
}

/** The lexicon's numbers and its features, ready to look up. */
export interface LexiconTable {
  languages: string[]
  backoff: number[]
  trigramBackoff: number[]
  weight: number[]
  trigramWeight: number[]
  /** Index of a word's feature, or -1. */
  word: (word: string) => number
  /** Index of the trigram text[from, from + 3), or -1 (no string is made for it). */
  trigram: (text: string, from: number) => number
  /** Index of the letter n-gram text[from, to) kept with the trigrams (the regression's are 1-4 letters long), or -1. */
  gram: (text: string, from: number, to: number) => number
  /** A stored value v stands for (zero - v) / scale. */
  zero: number
  scale: number
  /** Entries of feature f: start[f] .. start[f + 1] - 1 in `language` and `logProbability`. */
  start: Uint32Array
  language: Uint8Array
  /** -10 * log P(feature | language) in the lexicon, as stored (in general: see zero and scale). */
  negLogProbability: Uint8Array
}

/** Writes a lexicon in the compact form (with `quantization`: the regression's weights). */
export function encodeLexicon (lexicon: Lexicon, quantization: Quantization = LOG_PROBABILITY): Buffer {
  if (lexicon.languages.length > 256) throw new Error('lexicon.bin holds at most 256 languages')
  const features = [...Object.entries(lexicon.words), ...Object.entries(lexicon.trigrams)]
  const keys = Buffer.from(features.map(([key]) => `${key}\n`).join(''), 'utf8')
  const entries = features.reduce((n, [, pairs]) => n + pairs.length / 2, 0)
  const start = new Uint32Array(features.length + 1)
  const language = new Uint8Array(entries)
  const value = new Uint8Array(entries)
  let at = 0
  features.forEach(([, pairs], f) => {
    start[f] = at
    for (let k = 0; k < pairs.length; k += 2) {
      language[at] = pairs[k]!
      value[at] = Math.min(255, Math.max(0, Math.round(quantization.zero - quantization.scale * pairs[k + 1]!)))
      at++
    }
  })
  start[features.length] = at
  const header: Header = {
    languages: lexicon.languages,
    backoff: lexicon.backoff,
    trigramBackoff: lexicon.trigramBackoff,
    weight: lexicon.weight,
    trigramWeight: lexicon.trigramWeight,
    ...(quantization === LOG_PROBABILITY ? {} : quantization),
    words: Object.keys(lexicon.words).length,
    trigrams: Object.keys(lexicon.trigrams).length,
    entries,
    keyBytes: keys.length
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const length = Buffer.alloc(4)
  length.writeUInt32LE(json.length)
  return Buffer.concat([Buffer.from(MAGIC), length, json, keys, Buffer.from(start.buffer), language, value])
}

/** Reads the compact form; throws on a file that is not one. */
export function decodeLexicon (bytes: Uint8Array): LexiconTable {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buffer.toString('latin1', 0, 4) !== MAGIC) throw new Error('not a lexicon.bin file')
  const headerLength = buffer.readUInt32LE(4)
  let at = 8
  const header = JSON.parse(buffer.toString('utf8', at, at + headerLength)) as Header
  at += headerLength
  const keys = buffer.toString('utf8', at, at + header.keyBytes)
  at += header.keyBytes
  const count = header.words + header.trigrams
  // copied out: a Uint32Array needs an aligned offset
  const start = new Uint32Array(count + 1)
  for (let f = 0; f <= count; f++) start[f] = buffer.readUInt32LE(at + 4 * f)
  at += 4 * (count + 1)
  const language = Uint8Array.from(buffer.subarray(at, at + header.entries))
  at += header.entries
  const negLogProbability = Uint8Array.from(buffer.subarray(at, at + header.entries))
  if (at + header.entries !== buffer.length) throw new Error('lexicon.bin has the wrong length')

  // where each key starts in `keys` (UTF-16 units)
  const keyStart = new Uint32Array(count + 1)
  let f = 0
  for (let i = 0; i < keys.length && f < count; i++) if (keys.charCodeAt(i) === 10) keyStart[++f] = i + 1
  const words = new HashIndex(keys, keyStart, 0, header.words)
  const trigrams = new HashIndex(keys, keyStart, header.words, count)
  return {
    languages: header.languages,
    backoff: header.backoff,
    trigramBackoff: header.trigramBackoff,
    weight: header.weight,
    trigramWeight: header.trigramWeight,
    word: w => words.find(w, 0, w.length),
    trigram: (text, from) => trigrams.find(text, from, from + 3),
    gram: (text, from, to) => trigrams.find(text, from, to),
    zero: header.zero ?? LOG_PROBABILITY.zero,
    scale: header.scale ?? LOG_PROBABILITY.scale,
    start,
    language,
    negLogProbability
  }
}

/** Open addressing over keys [from, to) of one string; a probe compares characters in place. */
class HashIndex {
  private readonly slots: Int32Array
  private readonly mask: number

  constructor (private readonly keys: string, private readonly keyStart: Uint32Array, from: number, to: number) {
    let size = 1
    while (size < 2 * (to - from)) size <<= 1
    this.slots = new Int32Array(size).fill(-1)
    this.mask = size - 1
    for (let f = from; f < to; f++) {
      let slot = hashOf(keys, keyStart[f]!, keyStart[f + 1]! - 1) & this.mask
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask
      this.slots[slot] = f
    }
  }

  /** The feature whose key is text[from, to), or -1. */
  find (text: string, from: number, to: number): number {
    let slot = hashOf(text, from, to) & this.mask
    for (;;) {
      const f = this.slots[slot]!
      if (f === -1) return -1
      if (this.matches(f, text, from, to)) return f
      slot = (slot + 1) & this.mask
    }
  }

  private matches (f: number, text: string, from: number, to: number): boolean {
    const at = this.keyStart[f]!
    if (this.keyStart[f + 1]! - 1 - at !== to - from) return false
    for (let i = 0; i < to - from; i++) if (this.keys.charCodeAt(at + i) !== text.charCodeAt(from + i)) return false
    return true
  }
}

/** FNV-1a over UTF-16 units. */
function hashOf (text: string, from: number, to: number): number {
  let h = 0x811c9dc5
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return h >>> 0
}
