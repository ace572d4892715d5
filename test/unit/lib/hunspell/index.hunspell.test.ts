import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSpellChecker } from '../../../../src/lib/hunspell/index.js'

// Debian's hunspell (the program) and hunspell-tools (unmunch), installed by make test
const installed = existsSync('/usr/bin/hunspell') && existsSync('/usr/bin/unmunch')
const require = createRequire(import.meta.url)
const work = mkdtempSync(join(tmpdir(), 'hunspell-'))
afterAll(() => rmSync(work, { recursive: true, force: true }))

/** Every form Hunspell's unmunch expands from about 150 stems spread over the .dic: every affix rule it applies, strips and conditions included. */
function forms (dir: string, dic: string): string[] {
  const lines = dic.split('\n').slice(1).filter(line => line !== '')
  const step = Math.ceil(lines.length / 150)
  const sample = lines.filter((_, i) => i % step === 3)
  const file = join(work, 'sample.dic')
  writeFileSync(file, `${sample.length}\n${sample.join('\n')}\n`)
  const out = execFileSync('unmunch', [file, join(dir, 'index.aff')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 28 })
  // unmunch leaves some continuation flags after a slash; the hunspell program splits words at a hyphen (pt's clitics)
  const all = [...new Set(out.split('\n').map(w => w.split('/')[0]!).filter(w => w !== '' && !/[\s-]/.test(w)))]
  return all.filter((_, i) => i % Math.ceil(all.length / 2500) === 0)
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
    const dir = dirname(require.resolve(`dictionary-${language}`))
    const dic = readFileSync(join(dir, 'index.dic'), 'utf8')
    const right = forms(dir, dic)
    const words = [...new Set([...right, ...right.map(swapped)])]
      // Hunspell takes a leading apostrophe off a word ('là) before it checks it; callers do the same
      .filter(w => !/^['’]/.test(w))
    const verdicts = hunspell(dir, words)
    const checker = await createSpellChecker(readFileSync(join(dir, 'index.aff'), 'utf8'), dic)
    const differ = [...verdicts].filter(([w, ok]) => checker.correct(w) !== ok).map(([w, ok]) => `${w} (Hunspell: ${ok ? 'right' : 'misspelled'})`)
    expect(differ).toEqual([])
    // enough words of both kinds that a broken rule shows
    const counts = [...verdicts.values()]
    expect(counts.filter(ok => ok).length).toBeGreaterThan(200)
    expect(counts.filter(ok => !ok).length).toBeGreaterThan(200)
  }, 60_000)
})
