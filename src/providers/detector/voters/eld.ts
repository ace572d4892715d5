/**
 * eld (Efficient Language Detector, n-grams of 60 languages) as a voter. eld's own detect()
 * is reimplemented here over a compact copy of its database: importing eld's database module
 * costs about 170 MB of RSS (parser garbage and a grown young generation) for 60 MB of objects,
 * and its detect() allocates objects per call. The module is therefore read once in a child
 * process, which packs it into typed arrays and exits, taking that memory with it.
 * Scoring follows eld 2.x src/languageDetector.js (Apache-2.0, Nito T.M.).
 */
import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { allowedAnswer, tagOf } from '../codes.js'
import type { Voter } from '../voter.js'

const execFileAsync = promisify(execFile)

/** eld ships extrasmall, small, medium and large databases; medium is as accurate as large here (see bench/detect-accuracy). */
const DATABASE = 'medium'

interface PackedDatabase {
  codes: Record<number, string>
  /** n-grams joined by NUL, in database order */
  keys: string
  /** entries of n-gram i are starts[i] .. starts[i + 1] */
  starts: Uint32Array
  languages: Uint8Array
  scores: Int32Array
}

// runs in a child process (CommonJS); eld stores scores minus 53 to keep its files small. Output:
// 4-byte header length, JSON header { codes, keys, count, total }, then starts, languages, scores
const PACKER = `
import(process.argv[1]).then(({ ngramsData }) => {
  const ngrams = ngramsData.ngrams
  const keys = Object.keys(ngrams)
  const starts = new Uint32Array(keys.length + 1)
  let total = 0
  for (let i = 0; i < keys.length; i++) { starts[i] = total; for (const _ in ngrams[keys[i]]) total++ }
  starts[keys.length] = total
  const languages = new Uint8Array(total)
  const scores = new Int32Array(total)
  let j = 0
  for (const key of keys) for (const lang in ngrams[key]) { languages[j] = Number(lang); scores[j] = ngrams[key][lang] + 53; j++ }
  const header = Buffer.from(JSON.stringify({ codes: ngramsData.languages, keys: keys.join('\\u0000'), count: keys.length, total }))
  const length = Buffer.alloc(4)
  length.writeUInt32LE(header.length)
  process.stdout.write(Buffer.concat([length, header, Buffer.from(starts.buffer), Buffer.from(languages.buffer), Buffer.from(scores.buffer)]))
})`

/**
 * Packs eld's database in a child process: importing the module costs far more memory than the
 * data itself, and only a process that exits gives all of it back (a worker thread's allocator
 * arenas stay with this process).
 */
async function packDatabase (url: string): Promise<PackedDatabase> {
  const { stdout } = await execFileAsync(process.execPath, ['-e', PACKER, url], { encoding: 'buffer', maxBuffer: 256 << 20 })
  const headerLength = stdout.readUInt32LE(0)
  const header = JSON.parse(stdout.toString('utf8', 4, 4 + headerLength)) as { codes: Record<number, string>, keys: string, count: number, total: number }
  let offset = 4 + headerLength
  // copies: typed arrays over a Buffer slice could be misaligned
  const starts = new Uint32Array(stdout.buffer.slice(stdout.byteOffset + offset, stdout.byteOffset + offset + (header.count + 1) * 4))
  offset += (header.count + 1) * 4
  const languages = new Uint8Array(stdout.buffer.slice(stdout.byteOffset + offset, stdout.byteOffset + offset + header.total))
  offset += header.total
  const scores = new Int32Array(stdout.buffer.slice(stdout.byteOffset + offset, stdout.byteOffset + offset + header.total * 4))
  return { codes: header.codes, keys: header.keys, starts, languages, scores }
}

/** The directory of an installed package whose "exports" hide its files (eld exports only its entry points). */
function packageDirectory (name: string): string {
  const require = createRequire(import.meta.url)
  for (const dir of require.resolve.paths(name) ?? []) {
    if (existsSync(join(dir, name, 'package.json'))) return join(dir, name)
  }
  throw new Error(`package ${name} is not installed`)
}

/** Loads eld's database through a child process and wraps the scorer as a voter. */
export async function loadEld (): Promise<Voter> {
  const src = join(packageDirectory('eld'), 'src')
  const url = (file: string): string => pathToFileURL(join(src, file)).href
  const [packed, { dictionary }, { separators }] = await Promise.all([
    packDatabase(url(`ngrams/${DATABASE}.js`)),
    import(url('dictionary.js')) as Promise<{ dictionary: string[] }>,
    import(url('regexPatterns.js')) as Promise<{ separators: RegExp }>
  ])
  const scorer = new EldScorer(packed, dictionary, separators)
  const tags = Object.entries(packed.codes).map(([, code]) => code === 'ku' ? 'ckb' : tagOf(code) ?? code)
  return {
    name: 'eld',
    answers: [...new Set(tags)],
    top (text, allowedBases) {
      const scores = scorer.score(text)
      let best = -1
      for (let i = 0; i < scores.length; i++) {
        if (scores[i]! > 0 && (best === -1 || scores[i]! > scores[best]!) &&
          (allowedBases === undefined || allowedAnswer(tags[i]!, allowedBases))) best = i
      }
      return best === -1 ? undefined : tags[best]
    }
  }
}

/** eld's scoring: byte 4-grams of each word, each distinct n-gram adding its per-language scores. */
class EldScorer {
  private readonly index = new Map<string, number>()
  private readonly seen: Uint32Array
  private generation = 0
  private readonly totals: Float64Array

  constructor (private readonly db: PackedDatabase, private readonly dictionary: string[], private readonly separators: RegExp) {
    const keys = db.keys.split('\u0000')
    for (let i = 0; i < keys.length; i++) this.index.set(keys[i]!, i)
    this.seen = new Uint32Array(keys.length)
    this.totals = new Float64Array(Object.keys(db.codes).length)
  }

  /** Scores per language (database order) for a text; all 0 when no n-gram is known. Reused between calls. */
  score (text: string): Float64Array {
    this.totals.fill(0)
    if (++this.generation === 0xffffffff) {
      this.seen.fill(0)
      this.generation = 1
    }
    const words = this.utf8Words(text.substring(0, 1000).replace(this.separators, ' ').trim().toLowerCase())
    for (const word of words) {
      const len = Math.min(word.length, 70)
      let j = 0
      // 4-byte n-grams with a stride of 3, the first marked by a leading space, the last by a trailing one
      for (; j + 4 < len; j += 3) this.add((j === 0 ? ' ' : '') + word.substring(j, j + 4))
      this.add((j === 0 ? ' ' : '') + word.substring(len !== 3 ? len - 4 : 0) + ' ')
    }
    return this.totals
  }

  private add (ngram: string): void {
    const i = this.index.get(ngram)
    if (i === undefined || this.seen[i] === this.generation) return
    this.seen[i] = this.generation
    const { starts, languages, scores } = this.db
    for (let k = starts[i]!; k < starts[i + 1]!; k++) this.totals[languages[k]!] = this.totals[languages[k]!]! + scores[k]!
  }

  /** Words as strings of one character per UTF-8 byte (eld's dictionary), cut after about 350 bytes. */
  private utf8Words (str: string): string[] {
    const d = this.dictionary
    const words: string[] = []
    let encoded = ''
    let bytes = 0
    for (let i = 0; i < str.length; i++) {
      let c = str.charCodeAt(i)
      if (c < 0x80) {
        if (c === 32) {
          if (encoded !== '') {
            words.push(encoded)
            encoded = ''
          }
          if (bytes > 350) break
        } else {
          encoded += str[i]
        }
        bytes++
      } else if (c < 0x800) {
        encoded += d[0xc0 | (c >> 6)]! + d[0x80 | (c & 0x3f)]!
        bytes += 2
      } else if (c < 0xd800 || c >= 0xe000) {
        encoded += d[0xe0 | (c >> 12)]! + d[0x80 | ((c >> 6) & 0x3f)]! + d[0x80 | (c & 0x3f)]!
        bytes += 3
      } else {
        i++
        c = 0x10000 + (((c & 0x3ff) << 10) | (str.charCodeAt(i) & 0x3ff))
        encoded += d[0xf0 | (c >> 18)]! + d[0x80 | ((c >> 12) & 0x3f)]! + d[0x80 | ((c >> 6) & 0x3f)]! + d[0x80 | (c & 0x3f)]!
        bytes += 4
      }
      if (bytes > 380) break
    }
    if (encoded !== '') words.push(encoded)
    return words
  }
}
