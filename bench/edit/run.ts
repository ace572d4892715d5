/**
 * The offline rules editor: load time and memory per dictionary, and edits per second after
 * warm-up; then the service over HTTP: its RSS with every dictionary loaded and edits/s under load.
 * Run: npx tsx bench/edit/run.ts
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { EditItem } from '../../src/core/ports.js'
import { createRulesEditor } from '../../src/providers/rules-editor/editor.js'
import autocannon from 'autocannon'
import { accessToken, startService } from '../lib/service.js'
import { memoryOf } from '../lib/proc.js'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void
const rssMb = (): number => {
  gc()
  return Math.round(process.memoryUsage().rss / 1e6)
}

const editor = createRulesEditor()
const signal = new AbortController().signal
const edits = (...types: Array<'grammar' | 'syntax' | 'simplify'>): EditItem[] => types.map(type => ({ type }))

const TEXTS: Array<{ name: string, language: string, edits: EditItem[], segments: string[] }> = [
  {
    name: 'en 2 sentences, errors, grammar+simplify+syntax',
    language: 'en',
    edits: edits('grammar', 'simplify', 'syntax'),
    segments: ['Their going to the libary tomorow in order to utilize there books.  it was a a good idea,, I think.']
  },
  {
    name: 'en 2 sentences, clean, grammar+simplify+syntax',
    language: 'en',
    edits: edits('grammar', 'simplify', 'syntax'),
    segments: ['The committee met on Tuesday to review the budget. Everyone agreed that the plan was sound.']
  },
  {
    name: 'en 2 sentences, tagged, syntax only',
    language: 'en',
    edits: edits('syntax'),
    segments: ['see <g id="1">the  report</g> for details. it is <x id="2"/> pages long.']
  },
  {
    name: 'fr 2 sentences, grammar (spelling)',
    language: 'fr',
    edits: edits('grammar'),
    segments: ["Il fait beau aujourd'hui, mais demain il va pleuvoire. Je suis allé à la bibliotèque avec mes amis."]
  },
  {
    name: 'de 2 sentences, grammar (spelling)',
    language: 'de',
    edits: edits('grammar'),
    segments: ['Ich habe das nicht gewust, als wir gestern angekommen sind. Der Haustürschlüssel liegt auf dem Tisch.']
  }
]

async function timeIt (run: () => Promise<unknown>, ms: number): Promise<number> {
  let n = 0
  const started = performance.now()
  while (performance.now() - started < ms) {
    await run()
    n++
  }
  return n / ((performance.now() - started) / 1000)
}

const base = rssMb()
let started = performance.now()
await editor.ready!()
console.log(`English ready: ${Math.round(performance.now() - started)} ms, RSS ${base} -> ${rssMb()} MB`)

console.log('\nDictionaries (each loads on first use; RSS after gc):')
let before = rssMb()
for (const language of ['fr', 'de', 'es', 'it', 'nl', 'pt']) {
  started = performance.now()
  await editor.edit({ language, edits: edits('grammar'), toneLevel: 5, temperature: 0, segments: ['x'] }, signal)
  const ms = Math.round(performance.now() - started)
  const after = rssMb()
  console.log(`  ${language}: first edit ${ms} ms (load ${editor.loads().find(l => l.language === language)?.ms ?? '?'} ms), RSS +${after - before} MB`)
  before = after
}
console.log(`  RSS with every language loaded: ${rssMb()} MB (process baseline ${base} MB, heap ${Math.round(process.memoryUsage().heapUsed / 1e6)} MB)`)

const rows: string[] = []
for (const text of TEXTS) {
  const job = { language: text.language, edits: text.edits, toneLevel: 5, temperature: 0, segments: text.segments }
  const first = await editor.edit(job, signal)
  for (let i = 0; i < 300; i++) await editor.edit(job, signal)
  const perSecond = await timeIt(async () => await editor.edit(job, signal), 1500)
  rows.push(`${text.name.padEnd(50)} ${String(Math.round(perSecond)).padStart(7)} edits/s, ${first[0]!.notes.length} notes`)
}

// a misspelling never seen before costs a suggestion search: one new one per call
const WORDS: Record<string, string[]> = {
  en: ['yesterday', 'important', 'government', 'different', 'problem', 'morning', 'children', 'together', 'question', 'beautiful', 'business', 'remember', 'everything', 'interest', 'community', 'political'],
  fr: ['maintenant', 'toujours', 'beaucoup', 'gouvernement', 'ensemble', 'question', 'important', 'politique', 'semaine', 'quelque', 'pendant', 'personne']
}
for (const [language, words] of Object.entries(WORDS)) {
  const misspelt = words.flatMap(w => Array.from({ length: w.length - 2 }, (_, k) => w.slice(0, k + 1) + w.slice(k + 2)))
  const t0 = performance.now()
  for (const word of misspelt) {
    await editor.edit({ language, edits: edits('grammar'), toneLevel: 5, temperature: 0, segments: [`We saw the ${word} there.`] }, signal)
  }
  const perSecond = misspelt.length / ((performance.now() - t0) / 1000)
  rows.push(`${`${language}, a new misspelling each call (${misspelt.length} kinds)`.padEnd(50)} ${String(Math.round(perSecond)).padStart(7)} edits/s`)
}
console.log('\nThroughput (one process, one core, after warm-up):')
for (const r of rows) console.log('  ' + r)
console.log(`\nRSS at the end: ${rssMb()} MB`)

// the service over HTTP: every dictionary loaded by one edit in its language, then a load test of
// the acceptance sentence, and the service's RSS (what counts against its memory budget)
console.log('\nThe service over HTTP (built dist, offline editor, every offline analyser loaded):')
const service = await startService()
try {
  const token = await accessToken(service)
  const post = async (body: unknown): Promise<number> => (await fetch(`${service.base}/language/edit`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body)
  })).status
  console.log(`  service RSS at ready: ${memoryOf([service.child.pid]).rssMb.toFixed(0)} MB`)
  for (const language of ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt']) {
    const status = await post({ document: { value: 'Wir haben einen Tehxt mit Fehlerrn geschriebben.', language }, edits: [{ type: 'grammar' }] })
    if (status !== 200) throw new Error(`edit in ${language} answered ${status}`)
  }
  console.log(`  service RSS with all 7 spelling dictionaries loaded: ${memoryOf([service.child.pid]).rssMb.toFixed(0)} MB`)
  const body = JSON.stringify({ document: { value: 'Their going to the libary tomorow in order to utilize there books.' }, edits: [{ type: 'grammar' }, { type: 'simplify' }, { type: 'syntax' }] })
  const result = await autocannon({
    url: service.base,
    connections: 32,
    duration: 10,
    requests: [{ method: 'POST', path: '/language/edit', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body }]
  })
  console.log(`  POST /language/edit (en, language detected, grammar+simplify+syntax): ${result.requests.average.toFixed(0)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx`)
  console.log(`  service RSS after the load: ${memoryOf([service.child.pid]).rssMb.toFixed(0)} MB`)
} finally {
  await service.child.stop()
}
