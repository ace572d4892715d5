/**
 * Throughput of the document core: glossary matching (1,000 rules over 100,000 characters),
 * and segmenting + rebuilding plain text, HTML and Markdown of about 100,000 characters.
 * Run: npx tsx bench/documents.ts
 */
import { compileGlossary, findPhrases, type Substitution } from '../src/core/glossary.js'
import { prepareForTranslation } from '../src/core/documents/prepare.js'
import type { MimeType } from '../src/core/documents/segment.js'

function time<T> (label: string, runs: number, fn: () => T): T {
  let result = fn() // warm-up
  const started = performance.now()
  for (let i = 0; i < runs; i++) result = fn()
  const ms = (performance.now() - started) / runs
  console.log(`${label.padEnd(58)} ${ms.toFixed(1).padStart(8)} ms`)
  return result
}

const words = 'the garden tool company sells red shears and green hoses to people who love plants and flowers every spring'.split(' ')
const sentence = (i: number): string => {
  const n = 8 + (i % 9)
  const picked = Array.from({ length: n }, (_, k) => words[(i * 7 + k * 3) % words.length]!)
  picked[0] = picked[0]!.replace(/^./, c => c.toUpperCase())
  return picked.join(' ') + (i % 5 === 0 ? ' for Acme Tools.' : '.')
}
let prose = ''
for (let i = 0; prose.length < 100_000; i++) prose += sentence(i) + (i % 6 === 5 ? '\n\n' : ' ')
prose = prose.slice(0, 100_000)

const rules: Substitution[] = Array.from({ length: 1000 }, (_, i) => ({ text: `${words[i % words.length]} item${i}`, substitution: `X${i}` }))
rules.push({ text: 'Acme Tools', substitution: 'ACME Tools®' }, { text: 'red shears', substitution: 'pruners' })

console.log(`text: ${prose.length} characters, rules: ${rules.length}`)
const glossary = time('compile 1,002 rules', 20, () => compileGlossary(rules, { caseSensitive: false }))
const matches = time('findPhrases over 100,000 characters (case-insensitive)', 20, () => findPhrases(glossary, prose))
console.log(`  ${matches.length} matches`)
const sensitive = compileGlossary(rules, { caseSensitive: true })
time('findPhrases over 100,000 characters (case-sensitive)', 20, () => findPhrases(sensitive, prose))

const html = '<!DOCTYPE html><html><head><title>Bench</title></head><body>\n' +
  prose.split('\n\n').map((p, i) => `<p class="c${i % 3}">${p.replace(/red shears/g, '<b>red shears</b>').replace(/Acme Tools/g, '<a href="/acme?x=1&amp;y=2">Acme Tools</a>')}</p>`).join('\n') +
  '\n</body></html>'
const markdown = prose.split('\n\n').map((p, i) => (i % 10 === 0 ? '## ' : '') + p.replace(/red shears/g, '**red shears**').replace(/Acme Tools/g, '[Acme Tools](https://acme.example)')).join('\n\n')

for (const [label, value, type] of [['plain', prose, 'text/plain'], ['html', html, 'text/html'], ['markdown', markdown, 'text/markdown']] as Array<[string, string, MimeType]>) {
  const prepared = time(`prepare ${label} (${value.length} chars) with placeholders + rules`, 10, () =>
    prepareForTranslation(value, type, { placeholders: true, rules, caseSensitive: false }))
  console.log(`  ${prepared.segments.length} segments`)
  const out = time(`finish ${label} (identity answer)`, 10, () => prepared.finish(prepared.segments).value)
  if (typeof out !== 'string') throw new Error('unexpected shape')
}
