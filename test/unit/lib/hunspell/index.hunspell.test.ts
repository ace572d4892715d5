import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSpellChecker, type SpellChecker } from '../../../../src/lib/hunspell/index.js'

// The checker against the real Hunspell on the same dictionaries: Debian's hunspell (the program)
// and hunspell-tools (unmunch, which expands stems into their forms); without them, skipped
const installed = existsSync('/usr/bin/hunspell') && existsSync('/usr/bin/unmunch')
const require = createRequire(import.meta.url)
const work = mkdtempSync(join(tmpdir(), 'hunspell-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** A dictionary package's folder and texts. */
function dictionary (name: string): { dir: string, aff: string, dic: string } {
  const dir = dirname(require.resolve(`dictionary-${name.toLowerCase()}`))
  return { dir, aff: readFileSync(join(dir, 'index.aff'), 'utf8'), dic: readFileSync(join(dir, 'index.dic'), 'utf8') }
}

/** The .dic's entries (its lines but the count). */
const entries = (dic: string): string[] => dic.split('\n').slice(1).filter(line => line !== '')

/** About 150 entries spread over the .dic. */
function spread (dic: string): string[] {
  const lines = entries(dic)
  const step = Math.ceil(lines.length / 150)
  return lines.filter((_, i) => i % step === 3)
}

/** Every form Hunspell's unmunch expands from the entries, by every affix rule, strips and conditions included (2,500 of them at most). */
function forms (dir: string, sample: string[]): string[] {
  const file = join(work, 'sample.dic')
  writeFileSync(file, `${sample.length}\n${sample.join('\n')}\n`)
  const out = execFileSync('unmunch', [file, join(dir, 'index.aff')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })
  // unmunch leaves some continuation flags after a slash; the hunspell program splits words at a hyphen (pt's clitics)
  const all = [...new Set(out.split('\n').map(w => w.split('/')[0]!).filter(w => w !== '' && !/[\s-]/.test(w)))]
  return all.filter((_, i) => i % Math.ceil(all.length / 2500) === 0)
}

/** The forms, their misspellings, and the program's verdict on each. */
function verdicts (dir: string, sample: string[]): Map<string, boolean> {
  const right = forms(dir, sample)
  const words = [...new Set([...right, ...right.map(swapped)])]
    // Hunspell's tokenizer takes a leading apostrophe off ('là): it would answer for another word
    .filter(w => !/^['’]/.test(w))
  return hunspell(dir, words)
}

/** The words on which `checker` and the program differ, and how many it said are right and misspelled. */
function compare (checker: SpellChecker, verdicts: Map<string, boolean>): { differ: string[], right: number, misspelled: number } {
  // Hunspell takes "Bend" for "bend"; the checker takes case as given, and its callers ask for the lowercase of a capitalised word
  const known = (w: string): boolean => checker.correct(w) || (w.slice(1) === w.slice(1).toLowerCase() && checker.correct(w.toLowerCase()))
  const differ = [...verdicts].filter(([w, ok]) => known(w) !== ok).map(([w, ok]) => `${w} (Hunspell: ${ok ? 'right' : 'misspelled'})`)
  const right = [...verdicts.values()].filter(ok => ok).length
  return { differ, right, misspelled: verdicts.size - right }
}

/** `word` with its two middle letters swapped: mostly a misspelling, sometimes another word. */
function swapped (word: string): string {
  const c = Array.from(word)
  const i = c.length >> 1
  if (c.length > 2) [c[i - 1], c[i]] = [c[i]!, c[i - 1]!]
  return c.join('')
}

/** The hunspell program's verdict on each word it reads as one token: true (right), false (misspelled). */
function hunspell (dir: string, words: string[]): Map<string, boolean> {
  const run = (option: string): Set<string> => new Set(execFileSync('hunspell', [option, '-d', join(dir, 'index')], {
    input: words.join('\n') + '\n', encoding: 'utf8', maxBuffer: 1 << 28
  }).split('\n'))
  const good = run('-G')
  const bad = run('-l')
  const verdicts = new Map<string, boolean>()
  // a word its tokenizer split (at an apostrophe in it) is in neither list
  for (const w of words) if (good.has(w) !== bad.has(w)) verdicts.set(w, good.has(w))
  return verdicts
}

describe.skipIf(!installed)('hunspell checker against the hunspell program', () => {
  // the languages without compounding (de and nl compound, which this checker leaves to its callers)
  it.each(['en', 'fr', 'es', 'it', 'pt'])('answers as Hunspell for %s\'s forms and their misspellings', async (language) => {
    const { aff, dic, dir } = dictionary(language)
    const { differ, right, misspelled } = compare(await createSpellChecker(aff, dic), verdicts(dir, spread(dic)))
    expect(differ).toEqual([])
    // enough words of both kinds that a broken rule shows
    expect(right).toBeGreaterThan(200)
    expect(misspelled).toBeGreaterThan(200)
  }, 60_000)

  it.each(['en-GB', 'en-AU', 'en-CA'])('answers as Hunspell for %s built on en, on the forms of the entries where they differ', async (variant) => {
    const en = dictionary('en')
    const { aff, dic, dir } = dictionary(variant)
    expect(aff).toBe(en.aff)
    const base = await createSpellChecker(en.aff, en.dic)
    const ours = new Set(entries(dic))
    const american = new Set(entries(en.dic))
    // the variant's own entries (colour/MS) and en's it lacks (color/MS): its verdict is "misspelled" on those it does not share
    const differing = [...entries(dic).filter(line => !american.has(line)), ...entries(en.dic).filter(line => !ours.has(line))]
    expect(differing.length).toBeGreaterThan(1000)
    const { differ, right, misspelled } = compare(await createSpellChecker(aff, dic, base), verdicts(dir, [...differing, ...spread(dic)]))
    expect(differ).toEqual([])
    expect(right).toBeGreaterThan(200)
    expect(misspelled).toBeGreaterThan(200)
  }, 60_000)
})
