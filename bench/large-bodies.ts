/**
 * What a large request body costs the event loop, by design (issue 34, held values): the time the
 * event loop is busy (eventLoopUtilization) for one body of about 1 MiB, three shapes, in
 * interleaved rounds (the three bodies are of about 1 MiB):
 *
 *   held:  the bytes copied to shared memory, a pool thread parses them and keeps the costly
 *          values; the event loop gets the body without them (http/bodies.ts today), and the
 *          answer's rebuilt documents come back as JSON text, written in as it is;
 *   clone: a pool thread parses the body and posts the value back (a structured clone); the
 *          event loop sends the document to a thread to be worked, gets the rebuilt document
 *          back (a clone again) and serializes the answer;
 *   here:  the event loop parses the body (as under LARGE_REQUEST_BYTES) and serializes the answer.
 *
 *   npx tsx bench/large-bodies.ts [-- --rounds 7]
 */
import { Worker } from 'node:worker_threads'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import secureJson from 'secure-json-parse'

const { values: flags } = parseArgs({ options: { rounds: { type: 'string', default: '7' } } })
const ROUNDS = Number(flags.rounds)
const MIB = 1024 * 1024

const sentence = (i: number): string => `The committee number ${i} reviewed the long report about the new bridge in the morning. `
const prose = (chars: number): string => {
  let text = ''
  for (let i = 0; text.length < chars; i++) text += sentence(i)
  return text.slice(0, chars)
}
const shapes: Record<string, string> = {
  'one 1 MiB text document': JSON.stringify({ document: { value: prose(MIB - 100) }, source: 'en', targets: ['es'] }),
  'a JSON document of 25,000 keys': JSON.stringify({ document: { value: Object.fromEntries(Array.from({ length: 25_000 }, (_, i) => [`key.${i}`, `Save the file number ${i}`])), mime_type: 'application/json' }, source: 'en', targets: ['es'] }),
  '100 HTML documents of 10 KB': JSON.stringify({ documents: Array.from({ length: 100 }, (_, d) => ({ value: `<p>${prose(10_000 - 10)}${d}</p>`, mime_type: 'text/html' })), source: 'en', targets: ['es'] })
}

// the pool thread's side: parse the shared bytes; answer the whole value ('clone') or the body without its documents ('held')
const worker = new Worker(`
const { parentPort } = require('node:worker_threads')
let kept
parentPort.on('message', ({ op, bytes, value }) => {
  if (op === 'parse') {
    const body = JSON.parse(Buffer.from(bytes).toString('utf8'))
    parentPort.postMessage(body)
  } else if (op === 'hold') {
    kept = JSON.parse(Buffer.from(bytes).toString('utf8'))
    const view = { ...kept }
    if (view.document) view.document = { ...view.document, value: null }
    if (view.documents) view.documents = view.documents.map(d => ({ ...d, value: null }))
    parentPort.postMessage(view)
  } else if (op === 'work') {
    parentPort.postMessage(value)
  } else if (op === 'stringify') {
    parentPort.postMessage(JSON.stringify(kept.document ? kept.document.value : kept.documents.map(d => d.value)))
  }
})`, { eval: true })

async function ask (message: object): Promise<unknown> {
  return await new Promise(resolve => {
    worker.once('message', resolve)
    worker.postMessage(message)
  })
}

/** The event loop's busy time (ms) while `fn` runs, waits on the thread included as idle. */
async function busy (fn: () => Promise<void>): Promise<number> {
  const from = performance.eventLoopUtilization()
  await fn()
  const elu = performance.eventLoopUtilization(from)
  return elu.active
}

const documentsOf = (body: { document?: { value: unknown }, documents?: Array<{ value: unknown }> }): unknown => body.document?.value ?? body.documents?.map(d => d.value)

const designs: Record<string, (text: string) => Promise<void>> = {
  held: async text => {
    const shared = new SharedArrayBuffer(Buffer.byteLength(text))
    Buffer.from(shared).write(text)
    await ask({ op: 'hold', bytes: shared })
    // the rebuilt documents come back as JSON text, written into the answer as it is
    const json = await ask({ op: 'stringify' }) as string
    JSON.stringify({ results: '__held_0__' }).replace('"__held_0__"', () => json)
  },
  clone: async text => {
    const shared = new SharedArrayBuffer(Buffer.byteLength(text))
    Buffer.from(shared).write(text)
    const body = await ask({ op: 'parse', bytes: shared }) as Parameters<typeof documentsOf>[0]
    const rebuilt = await ask({ op: 'work', value: documentsOf(body) })
    JSON.stringify({ results: rebuilt })
  },
  here: async text => {
    const body = secureJson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }) as Parameters<typeof documentsOf>[0]
    JSON.stringify({ results: documentsOf(body) })
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const times: Record<string, Record<string, number[]>> = {}
for (const [shape, text] of Object.entries(shapes)) {
  times[shape] = {}
  for (const design of Object.keys(designs)) {
    times[shape][design] = []
    await designs[design]!(text) // warm-up
  }
}
for (let round = 0; round < ROUNDS; round++) {
  for (const [shape, text] of Object.entries(shapes)) {
    for (const [design, run] of Object.entries(designs)) times[shape]![design]!.push(await busy(async () => { await run(text) }))
  }
}
console.log(`event-loop busy time per body, ms: median (min-max) of ${ROUNDS} interleaved rounds`)
for (const [shape, text] of Object.entries(shapes)) {
  console.log(`${shape} (${(text.length / 1024).toFixed(0)} KB)`)
  for (const [design, xs] of Object.entries(times[shape]!)) console.log(`  ${design.padEnd(6)} ${median(xs).toFixed(1).padStart(7)} (${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)})`)
}
await worker.terminate()
