/**
 * Builds src/providers/detector/wordlists.bin: per language, a Bloom filter of the words its
 * Hunspell dictionary spells (Debian's hunspell-* packages; each stem, and each with one suffix or
 * one prefix of its affix rules, lower-cased). The ensemble reads it for texts of 1-3 words.
 *
 *   npx tsx bench/detect-accuracy/build-wordlists.ts [--bits 8] [--max-letters 7] [--skip nb,nn] [--out FILE]
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { encodeWordLists, type WordList } from '../../src/providers/detector/wordlists.js'

const { values: args } = parseArgs({ options: { bits: { type: 'string', default: '8' }, 'max-letters': { type: 'string', default: '7' }, skip: { type: 'string', default: '' }, out: { type: 'string', default: 'src/providers/detector/wordlists.bin' } } })
const BITS_PER_WORD = Number(args.bits)
const CACHE = 'bench/corpus/hunspell'
/** Longer words are not listed (the ensemble does not look them up): short texts' everyday words are short, and the lists stay small. */
const MAX_LETTERS = Number(args['max-letters'])
const LETTERS = /^[\p{L}\p{M}]+$/u

/**
 * Detector tag -> Debian packages and dictionary files (merged). Latin script only, to stay small:
 * the Cyrillic six (ru, uk, bg, sr, be, kk) would add 2.2M words, and their short texts were not what went wrong.
 */
const DICTIONARIES: Record<string, { pkg: string[], files: string[] }> = {
  af: { pkg: ['hunspell-af'], files: ['af_ZA'] },
  bs: { pkg: ['hunspell-bs'], files: ['bs_BA'] },
  ca: { pkg: ['hunspell-ca'], files: ['ca'] },
  cs: { pkg: ['hunspell-cs'], files: ['cs_CZ'] },
  da: { pkg: ['hunspell-da'], files: ['da_DK'] },
  de: { pkg: ['hunspell-de-de'], files: ['de_DE'] },
  en: { pkg: ['hunspell-en-us', 'hunspell-en-gb'], files: ['en_US', 'en_GB'] },
  es: { pkg: ['hunspell-es'], files: ['es_ES'] },
  fr: { pkg: ['hunspell-fr-classical'], files: ['fr'] },
  gl: { pkg: ['hunspell-gl'], files: ['gl_ES'] },
  hr: { pkg: ['hunspell-hr'], files: ['hr_HR'] },
  hu: { pkg: ['hunspell-hu'], files: ['hu_HU'] },
  id: { pkg: ['hunspell-id'], files: ['id_ID'] },
  it: { pkg: ['hunspell-it'], files: ['it_IT'] },
  nb: { pkg: ['hunspell-no'], files: ['nb_NO'] },
  nl: { pkg: ['hunspell-nl'], files: ['nl'] },
  pl: { pkg: ['hunspell-pl'], files: ['pl_PL'] },
  pt: { pkg: ['hunspell-pt-br', 'hunspell-pt-pt'], files: ['pt_BR', 'pt_PT'] },
  ro: { pkg: ['hunspell-ro'], files: ['ro_RO'] },
  sk: { pkg: ['hunspell-sk'], files: ['sk_SK'] },
  sl: { pkg: ['hunspell-sl'], files: ['sl_SI'] },
  sv: { pkg: ['hunspell-sv'], files: ['sv_SE'] },
  tr: { pkg: ['hunspell-tr'], files: ['tr_TR'] },
  'sr-Latn': { pkg: ['hunspell-sr'], files: ['sr_Latn_RS'] },
  nn: { pkg: ['hunspell-no'], files: ['nn_NO'] },
  et: { pkg: ['myspell-et'], files: ['et_EE'] },
  eu: { pkg: ['hunspell-eu'], files: ['eu'] },
  lt: { pkg: ['hunspell-lt'], files: ['lt_LT'] },
  lv: { pkg: ['hunspell-lv'], files: ['lv_LV'] },
  oc: { pkg: ['hunspell-oc'], files: ['oc_FR'] },
  sw: { pkg: ['hunspell-sw'], files: ['sw_TZ'] },
  vi: { pkg: ['hunspell-vi'], files: ['vi_VN'] }
}

mkdirSync(CACHE, { recursive: true })
const dir = join(CACHE, 'x/usr/share/hunspell')
const wanted = [...new Set(Object.values(DICTIONARIES).flatMap(d => d.pkg))]
const missing = wanted.filter(p => !readdirSync(CACHE).some(f => f.startsWith(`${p}_`)))
if (missing.length > 0) execFileSync('apt-get', ['download', ...missing], { cwd: CACHE, stdio: 'inherit' })
for (const f of readdirSync(CACHE)) if (f.endsWith('.deb')) execFileSync('dpkg-deb', ['-x', join(CACHE, f), join(CACHE, 'x')])

interface Rule { strip: string, add: string, cont: string[], condition: RegExp }
interface Aff { flagMode: string, aliases: string[][], suffixes: Map<string, { cross: boolean, rules: Rule[] }>, prefixes: Map<string, { cross: boolean, rules: Rule[] }>, skip: Set<string> }

function decode (bytes: Buffer): string {
  const head = bytes.subarray(0, 4000).toString('latin1')
  const set = /^SET\s+(\S+)/m.exec(head)?.[1] ?? 'UTF-8'
  return new TextDecoder(set.toLowerCase().replace('microsoft-', '').replace('koi8-r', 'koi8-r')).decode(bytes)
}

function splitFlags (text: string, mode: string): string[] {
  if (text === '') return []
  if (mode === 'long') return text.match(/../g) ?? []
  if (mode === 'num') return text.split(',')
  return [...text]
}

function parseAff (text: string): Aff {
  const aff: Aff = { flagMode: 'char', aliases: [], suffixes: new Map(), prefixes: new Map(), skip: new Set() }
  for (const raw of text.split(/\r?\n/)) {
    const parts = raw.trim().split(/\s+/)
    if (parts[0] === 'FLAG') aff.flagMode = parts[1] === 'UTF-8' ? 'utf8' : parts[1]!
    else if (parts[0] === 'AF' && parts.length === 2 && !/^\d+$/.test(parts[1]!)) aff.aliases.push(splitFlags(parts[1]!, aff.flagMode))
    else if (parts[0] === 'AF' && parts.length === 2 && aff.aliases.length > 0) aff.aliases.push(splitFlags(parts[1]!, aff.flagMode))
    else if (['NEEDAFFIX', 'ONLYINCOMPOUND', 'FORBIDDENWORD', 'PSEUDOROOT'].includes(parts[0]!) && parts[1] !== undefined) aff.skip.add(parts[1])
    else if ((parts[0] === 'SFX' || parts[0] === 'PFX') && parts.length >= 4) {
      const table = parts[0] === 'SFX' ? aff.suffixes : aff.prefixes
      const flag = parts[1]!
      if (parts.length === 4 && /^\d+$/.test(parts[3]!) && !table.has(flag)) { table.set(flag, { cross: parts[2] === 'Y', rules: [] }); continue }
      const [addText = '', cont = ''] = parts[3]!.split('/')
      const strip = parts[2] === '0' ? '' : parts[2]!
      const add = addText === '0' ? '' : addText
      const cond = parts[4] ?? '.'
      let condition: RegExp
      try { condition = new RegExp(parts[0] === 'SFX' ? `${cond}$` : `^${cond}`, 'u') } catch { continue }
      table.get(flag)?.rules.push({ strip, add, cont: splitFlags(cont, aff.flagMode), condition })
    }
  }
  return aff
}

/** Every word of a dictionary up to MAX_LETTERS: stems, and each stem with one suffix or one prefix. */
function expand (name: string, into: Set<string>): void {
  const aff = parseAff(decode(readFileSync(join(dir, `${name}.aff`))))
  const dic = decode(readFileSync(join(dir, `${name}.dic`))).split(/\r?\n/)
  // the detector's words are runs of letters: forms with an apostrophe, hyphen or digit never match one
  const lower = (w: string): void => { if (w.length > 0 && w.length <= MAX_LETTERS && LETTERS.test(w)) into.add(w.toLocaleLowerCase()) }
  for (let n = 1; n < dic.length; n++) {
    const line = dic[n]!.split(/[\t ]/)[0]!
    if (line === '') continue
    const slash = line.search(/(?<!\\)\//)
    const stem = (slash === -1 ? line : line.slice(0, slash)).replace(/\\\//g, '/')
    const flagText = slash === -1 ? '' : line.slice(slash + 1)
    const flags = aff.aliases.length > 0 && /^\d+$/.test(flagText) ? aff.aliases[Number(flagText) - 1] ?? [] : splitFlags(flagText, aff.flagMode)
    if (!flags.some(f => aff.skip.has(f))) lower(stem)
    for (const f of flags) {
      const sfx = aff.suffixes.get(f)
      if (sfx === undefined) continue
      for (const r of sfx.rules) {
        if (!r.condition.test(stem) || !stem.endsWith(r.strip)) continue
        const word = stem.slice(0, stem.length - r.strip.length) + r.add
        lower(word)
      }
    }
    for (const f of flags) {
      const pfx = aff.prefixes.get(f)
      if (pfx === undefined) continue
      for (const r of pfx.rules) {
        const apply = (w: string): void => { if (r.condition.test(w) && w.startsWith(r.strip)) lower(r.add + w.slice(r.strip.length)) }
        apply(stem)
      }
    }
  }
}

const lists: WordList[] = []
const skipped = new Set(args.skip.split(','))
for (const [language, { files }] of Object.entries(DICTIONARIES)) {
  if (skipped.has(language)) continue
  const words = new Set<string>()
  for (const f of files) if (existsSync(join(dir, `${f}.dic`))) expand(f, words)
  lists.push({ language, words })
  console.log(`${language}: ${words.size} words`)
}
const bin = encodeWordLists(lists, BITS_PER_WORD, MAX_LETTERS)
writeFileSync(args.out, bin)
console.log(`${args.out}: ${(bin.length / 1e6).toFixed(2)} MB, ${BITS_PER_WORD} bits a word`)
