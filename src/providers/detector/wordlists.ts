/**
 * Which languages' spelling dictionaries hold a word: one Bloom filter per language
 * (wordlists.bin, built by bench/detect-accuracy/build-wordlists.ts from Debian's Hunspell
 * dictionaries). A filter never misses a word it holds; it wrongly holds about 2% of others.
 * The same file holds the everyday words' lists ("everyday:de", bench/detect-accuracy/build-everyday.ts):
 * the words most often met in a language's everyday text, at 16 bits a word (~0.05% wrongly held).
 */

export interface WordList {
  language: string
  words: Iterable<string> & { size: number }
}

export interface WordLists {
  languages: string[]
  /** Longer words are in no list: not looked up. */
  maxLetters: number
  /** Whether the list of language number `j` holds `word` (lower-case). */
  has: (j: number, word: string) => boolean
  /** Sets `out[j]` to 1 where list `j` holds `word`, else 0 (the word hashed once for all lists). */
  holders: (word: string, out: Uint8Array) => void
}

const MAGIC = 0x314c5700 // "\0WL1"

/** The name of a language's everyday words' list is this and its tag. */
export const EVERYDAY = 'everyday:'
/** Everyday words are listed up to this many letters ("dobranoc"); the spelling lists' limit is the file's maxLetters. */
export const EVERYDAY_MAX_LETTERS = 24

/** Two 32-bit hashes of a word (FNV-1a with two seeds); the filter's probes are h1 + i * h2. */
function hashes (word: string): [number, number] {
  let a = 0x811c9dc5
  let b = 0x01000193 ^ 0x5bd1e995
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
    b ^= b >>> 15
  }
  return [fmix(a) >>> 0, (fmix(b) | 1) >>> 0]
}

/** MurmurHash3's finalizer: FNV's low bits alone are not spread enough for the probes. */
function fmix (h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return h ^ (h >>> 16)
}

/** Header (JSON: language, byte offset, bits, probes per filter) then the filters. */
export function encodeWordLists (lists: readonly WordList[], bitsPerWord: number, maxLetters: number): Buffer {
  const probes = Math.max(1, Math.round(bitsPerWord * Math.LN2))
  const header: Array<{ language: string, offset: number, bits: number, probes: number }> = []
  const filters: Uint8Array[] = []
  let offset = 0
  for (const list of lists) {
    const bits = Math.max(64, Math.ceil(list.words.size * bitsPerWord / 8) * 8)
    const filter = new Uint8Array(bits / 8)
    for (const word of list.words) {
      const [h1, h2] = hashes(word)
      for (let i = 0; i < probes; i++) {
        const bit = (h1 + i * h2) % bits
        filter[bit >>> 3]! |= 1 << (bit & 7)
      }
    }
    header.push({ language: list.language, offset, bits, probes })
    filters.push(filter)
    offset += filter.length
  }
  const json = Buffer.from(JSON.stringify({ maxLetters, lists: header }))
  const head = Buffer.alloc(8)
  head.writeUInt32LE(MAGIC, 0)
  head.writeUInt32LE(json.length, 4)
  return Buffer.concat([head, json, ...filters])
}

/** One file of the lists of both: `base`'s lists whose names do not start with `prefix`, then `added`'s (filters copied as they are). */
export function mergeWordLists (base: Uint8Array, added: Uint8Array, prefix: string): Buffer {
  const read = (bytes: Uint8Array): { maxLetters: number, lists: Array<{ language: string, offset: number, bits: number, probes: number }>, data: Uint8Array } => {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    if (view.getUint32(0, true) !== MAGIC) throw new Error('wordlists.bin: not a word list file')
    const length = view.getUint32(4, true)
    return { ...JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))), data: bytes.subarray(8 + length) }
  }
  const a = read(base)
  const b = read(added)
  const header: typeof a.lists = []
  const filters: Uint8Array[] = []
  let offset = 0
  for (const [file, keep] of [[a, (l: string) => !l.startsWith(prefix)], [b, () => true]] as const) {
    for (const h of file.lists) {
      if (!keep(h.language)) continue
      const filter = file.data.subarray(h.offset, h.offset + h.bits / 8)
      header.push({ ...h, offset })
      filters.push(filter)
      offset += filter.length
    }
  }
  const json = Buffer.from(JSON.stringify({ maxLetters: a.maxLetters, lists: header }))
  const head = Buffer.alloc(8)
  head.writeUInt32LE(MAGIC, 0)
  head.writeUInt32LE(json.length, 4)
  return Buffer.concat([head, json, ...filters])
}

/** The lists of the file whose names `keep` takes (all by default). */
export function decodeWordLists (bytes: Uint8Array, keep: (language: string) => boolean = () => true): WordLists {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MAGIC) throw new Error('wordlists.bin: not a word list file')
  const length = view.getUint32(4, true)
  const file = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length))) as { maxLetters: number, lists: Array<{ language: string, offset: number, bits: number, probes: number }> }
  const { maxLetters } = file
  // one copy of the kept filters, not a view that would keep the read buffer alive
  const header = file.lists.filter(h => keep(h.language))
  const data = new Uint8Array(header.reduce((n, h) => n + h.bits / 8, 0))
  let at = 0
  for (const h of header) {
    data.set(bytes.subarray(8 + length + h.offset, 8 + length + h.offset + h.bits / 8), at)
    h.offset = at
    at += h.bits / 8
  }
  const holds = (j: number, h1: number, h2: number): boolean => {
    const h = header[j]
    if (h === undefined) return false
    for (let i = 0; i < h.probes; i++) {
      const bit = (h1 + i * h2) % h.bits
      if ((data[h.offset + (bit >>> 3)]! & (1 << (bit & 7))) === 0) return false
    }
    return true
  }
  return {
    languages: header.map(h => h.language),
    maxLetters,
    has (j: number, word: string): boolean {
      const [h1, h2] = hashes(word)
      return holds(j, h1, h2)
    },
    holders (word: string, out: Uint8Array): void {
      const [h1, h2] = hashes(word)
      for (let j = 0; j < header.length; j++) out[j] = holds(j, h1, h2) ? 1 : 0
    }
  }
}
