/**
 * Memory of a worker process after every kind of request has run: starts the service (built
 * dist/, WORKERS=1 unless --workers) with two OAuth clients, prints the RSS of each worker process
 * (and the primary's, if any) at ready, then sends every kind of request from both clients at once
 * (so that each pool thread may take each kind): translate plain/html/markdown/json/office, bulk,
 * a document job, detect, analyze each part in each native language with long texts (they go to
 * the pool), edit in every spelling dictionary, substitute, locales; and prints the RSS after, the
 * most seen meanwhile, and 1, 5 and 15 seconds later (a worker thread collects its heap once idle 200 ms). Apertium's pipelines are separate processes,
 * printed apart.
 *
 *   npx tsx bench/memory.ts [--workers 1] [--rounds 2] [--node-args='--max-semi-space-size=2']
 *                           [--env KEY=VALUE,...] [--root DIR] [--heaps] [--snapshots DIR]
 *
 * `--node-args`: Node flags beside the start command's (a later flag wins); `--env`: variables for
 * the service; `--root DIR`: another checkout, built, whose dist/server.js runs (say a
 * `git worktree` that nothing else rebuilds meanwhile). `--heaps`: also prints each thread's V8 heap
 * right after the requests (physical, in use, outside it: typed arrays, wasm memories), read by a
 * module preloaded into the service (bench/lib/thread-heaps.mjs; WORKERS=1 only); `--snapshots DIR`:
 * and writes a heap snapshot of each thread there, which `node bench/memory-heaps.mjs FILE` sums
 * (they take seconds and memory: the later readings are then off).
 */
import { readFileSync, mkdtempSync, rmSync, existsSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir, cpus, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { startService } from './lib/service.js'
import { isNodeProcess, memoryOf, processTree, type ProcStat } from './lib/proc.js'

const { values: args } = parseArgs({ options: { workers: { type: 'string', default: '1' }, rounds: { type: 'string', default: '2' }, 'node-args': { type: 'string', default: '' }, root: { type: 'string' }, env: { type: 'string', default: '' }, heaps: { type: 'boolean', default: false }, snapshots: { type: 'string' } } })
const WORKERS = Number(args.workers)
const ROUNDS = Number(args.rounds)

const CLIENTS = [{ id: 'bench', secret: 'bench-secret-123' }, { id: 'bench-2', secret: 'bench-secret-456' }]
const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'))
// Node's flags besides those `npm start` passes (V8's hold for every thread of the process)
const nodeArgs = args['node-args'].split(' ').filter(arg => arg !== '')
// each thread's heap after the requests: a module preloaded into the service reads them when told (a file appears)
const heapsDir = args.snapshots !== undefined ? resolve(args.snapshots) : args.heaps ? join(dataDir, 'heaps') : undefined
if (heapsDir !== undefined) {
  mkdirSync(heapsDir, { recursive: true })
  nodeArgs.push('--import', fileURLToPath(new URL('./lib/thread-heaps.mjs', import.meta.url)))
}
const service = await startService({
  nodeArgs,
  ...(args.root === undefined ? {} : { root: args.root }),
  env: {
    ...Object.fromEntries(args.env.split(',').filter(kv => kv !== '').map(kv => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)])),
    WORKERS: String(WORKERS),
    DATA_DIR: dataDir,
    ...(heapsDir === undefined ? {} : { BENCH_HEAPS_DIR: heapsDir, BENCH_HEAPS_SNAPSHOTS: args.snapshots === undefined ? '0' : '1' }),
    AUTH_CLIENTS: JSON.stringify(CLIENTS.map(c => ({ ...c, scopes: ['access'] })))
  }
})

/** The service's Node processes: the worker(s), and the primary when WORKERS > 1; the rest is Apertium's. */
function processesNow (): { primary: ProcStat | undefined, workers: ProcStat[], others: ProcStat[] } {
  const tree = processTree(service.child.pid)
  const root = tree.find(p => p.pid === service.child.pid)
  if (WORKERS === 1) return { primary: undefined, workers: root === undefined ? [] : [root], others: tree.filter(p => p !== root) }
  const workers = tree.filter(p => p.ppid === service.child.pid && isNodeProcess(p))
  return { primary: root, workers, others: tree.filter(p => p !== root && !workers.includes(p)) }
}
const mb = (n: number): string => `${n.toFixed(0)} MB`
function reading (): { workers: number[], primary: number | undefined, others: number } {
  const { primary, workers, others } = processesNow()
  return {
    workers: workers.map(w => memoryOf([w.pid]).rssMb),
    primary: primary === undefined ? undefined : memoryOf([primary.pid]).rssMb,
    others: memoryOf(others.map(p => p.pid)).pssMb
  }
}
function print (label: string, r: ReturnType<typeof reading>): void {
  console.log(`  ${label.padEnd(34)} worker RSS ${r.workers.map(mb).join(', ')}${r.primary === undefined ? '' : `; primary ${mb(r.primary)}`}; Apertium pipelines and their launcher ${mb(r.others)} PSS`)
}

async function token (client: { id: string, secret: string }): Promise<string> {
  const res = await fetch(`${service.base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials'
  })
  return ((await res.json()) as { access_token: string }).access_token
}

// real text: the labelled review sentences (English), and a few native sentences of each other language
const reviews = readFileSync(new URL('../test/data/sentiment-dev.jsonl', import.meta.url), 'utf8')
  .split('\n').filter(line => line.trim() !== '').map(line => (JSON.parse(line) as { text: string }).text)
const NATIVE: Record<string, string> = {
  en: reviews.join(' '),
  fr: "Le film était magnifique, mais la fin m'a beaucoup déçu. Marie Dupont habite à Lyon et travaille chez Renault depuis 2019. Appelez-nous au 01 23 45 67 89. Ce connard de voisin a encore volé mon vélo, quelle honte ! Le match de football de samedi au stade a été annulé à cause de la pluie.",
  de: 'Der Film war großartig, aber das Ende hat mich enttäuscht. Anna Müller wohnt in Berlin und arbeitet seit 2019 bei Siemens. Rufen Sie uns an unter 030 1234567. Dieser Idiot hat schon wieder mein Fahrrad gestohlen! Das Fußballspiel im Stadion wurde wegen Regen abgesagt.',
  es: 'La película fue maravillosa, pero el final me decepcionó mucho. María García vive en Madrid y trabaja en Telefónica desde 2019. Llámenos al 912 345 678. ¡Ese idiota me ha robado la bicicleta otra vez! El partido de fútbol en el estadio fue cancelado por la lluvia.',
  it: 'Il film era magnifico, ma il finale mi ha deluso molto. Maria Rossi vive a Milano e lavora alla Fiat dal 2019. Chiamateci al 02 1234 5678. Quell\'idiota mi ha rubato di nuovo la bicicletta! La partita di calcio allo stadio è stata annullata per la pioggia.',
  pt: 'O filme foi maravilhoso, mas o final me decepcionou muito. Maria Silva mora em Lisboa e trabalha na Galp desde 2019. Ligue para nós pelo 21 123 4567. Aquele idiota roubou a minha bicicleta outra vez! O jogo de futebol no estádio foi cancelado por causa da chuva.',
  nl: 'De film was prachtig, maar het einde viel me erg tegen. Anna de Vries woont in Amsterdam en werkt sinds 2019 bij Philips. Bel ons op 020 123 4567. Die idioot heeft mijn fiets weer gestolen! De voetbalwedstrijd in het stadion werd afgelast vanwege de regen.'
}
/** About `chars` characters of the language's text: from 10,000 an analysis counts as long (it is heavy on the pool). */
const long = (language: string, chars: number): string => {
  let text = ''
  while (text.length < chars) text += NATIVE[language]! + ' '
  return text.slice(0, chars)
}
const MISSPELT: Record<string, string> = {
  en: 'Their going to the libary tomorow in order to utilize there books.',
  'en-GB': 'The colour of the neighbourhood is realy nice.',
  'en-AU': 'The colour of the neighbourhood is realy nice.',
  'en-CA': 'The color of the neighbourhood is realy nice.',
  fr: "Nous avons écrit un texxte avec des fauttes d'orthographe.",
  de: 'Wir haben einen Tehxt mit Fehlerrn geschriebben.',
  es: 'Hemos escrito un textto con errorres de ortografía.',
  it: 'Abbiamo scritto un testto con errorri di ortografia.',
  nl: 'We hebben een tekkst met fouten geschreeven.',
  pt: 'Nós escrevemos um textto com errros de ortografia.'
}
const OFFICE = ['mammoth-tables.docx', 'python-pptx-test.pptx', 'tealeg-inlineStrings.xlsx', 'pandoc-textMixedStyles.odt', 'pandoc-tiny.epub']
const MIME: Record<string, string> = {
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  epub: 'application/epub+zip'
}
const office = (file: string): { value: string, mime_type: string } => ({
  value: readFileSync(new URL(`../test/data/office/${file}`, import.meta.url)).toString('base64'),
  mime_type: MIME[file.split('.').pop()!]!
})
const html = `<html><body>${reviews.slice(0, 200).map(r => `<p title="a review">${r.replace(/[<&]/g, ' ')}</p>`).join('')}</body></html>`
const markdown = reviews.slice(0, 200).map((r, i) => `## Review ${i}\n\n${r.replace(/[`*_#<]/g, ' ')} See \`code\` and [a link](https://example.com).\n`).join('\n')
const json = Object.fromEntries(reviews.slice(0, 200).map((r, i) => [`key${i}`, { text: r, n: i }]))

type Call = [method: string, path: string, body?: unknown]
/** Every kind of request, each once. */
function requests (): Call[] {
  const calls: Call[] = [
    ['POST', '/language/translate', { document: { value: reviews.slice(0, 100).join(' ') }, source: 'en', targets: ['es'] }],
    ['POST', '/language/translate', { document: { value: html, mime_type: 'text/html' }, source: 'en', targets: ['es'] }],
    ['POST', '/language/translate', { document: { value: markdown, mime_type: 'text/markdown' }, source: 'en', targets: ['es'] }],
    ['POST', '/language/translate', { document: { value: json, mime_type: 'application/json' }, source: 'en', targets: ['es'] }],
    ['POST', '/language/translate', { document: { value: reviews[3] }, targets: ['es'], substitutions: [{ text: 'the', substitution: 'THE' }] }],
    ['POST', '/language/translate/bulk', { documents: reviews.slice(0, 50).map(value => ({ value })), source: 'en', targets: ['es'] }],
    ...OFFICE.map((file): Call => ['POST', '/language/translate', { document: office(file), source: 'en', targets: ['es'] }]),
    ['POST', '/language/detect', { document: { value: reviews[0] } }],
    ['POST', '/language/detect', { document: { value: long('fr', 5000) } }],
    ['POST', '/language/substitute', { document: { value: reviews.slice(0, 20).join(' '), language: 'en' }, substitutions: [{ text: 'movie', substitution: 'film' }] }],
    ['GET', '/language/locales'],
    ['GET', '/language/locale/pt-BR?display=fr'],
    ['GET', '/language/translate/locales'],
    ['GET', '/language/translate/locales/supported?source=en&target=es'],
    ['GET', '/language/edit/tones']
  ]
  for (const language of Object.keys(NATIVE)) {
    for (const part of ['entities', 'sentiment', 'moderation', 'categories']) {
      calls.push(['POST', '/language/analyze', { document: { value: long(language, 30_000), language }, analyses: [part] }])
    }
    calls.push(['POST', '/language/analyze', { document: { value: long(language, 400), language } }])
    calls.push(['POST', '/language/analyze/sentiment', { document: { value: long(language, 200) } }])
  }
  for (const [language, value] of Object.entries(MISSPELT)) {
    // the offline editor simplifies and checks syntax in English only: elsewhere it spells and checks grammar
    const edits = language === 'en' ? [{ type: 'grammar' }, { type: 'simplify' }, { type: 'syntax' }] : [{ type: 'grammar' }]
    calls.push(['POST', '/language/edit', { document: { value, language }, edits }])
  }
  calls.push(['POST', '/language/edit', { document: { value: long('en', 20_000), language: 'en' }, edits: [{ type: 'grammar' }] }])
  return calls
}

async function send (bearer: string, [method, path, body]: Call): Promise<number> {
  const res = await fetch(`${service.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  await res.arrayBuffer()
  return res.status
}

/** A document job: created, then read until it is done. */
async function job (bearer: string): Promise<number> {
  const created = await fetch(`${service.base}/language/translate/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${bearer}`, 'content-type': 'application/json' },
    body: JSON.stringify({ document: office('mammoth-simple-list.docx'), source: 'en', targets: ['es', 'fr'] })
  })
  if (created.status !== 202) return created.status
  const location = new URL(created.headers.get('location')!, service.base)
  for (;;) {
    await new Promise(resolve => setTimeout(resolve, 200))
    const state = await (await fetch(location, { headers: { authorization: `Bearer ${bearer}` } })).json() as { status: string }
    if (state.status === 'done') return 200
    if (state.status !== 'queued' && state.status !== 'running') return 500
  }
}

try {
  const tokens = await Promise.all(CLIENTS.map(token))
  console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GB, Node ${process.version}, WORKERS=${WORKERS}${nodeArgs.length === 0 ? '' : `, ${nodeArgs.join(' ')}`}${args.env === '' ? '' : `, ${args.env}`}`)
  const ready = reading()
  print('at ready', ready)
  let peak = ready.workers.slice()
  const sampler = setInterval(() => {
    const r = reading()
    peak = r.workers.map((v, i) => Math.max(v, peak[i] ?? 0))
  }, 200)
  const statuses = new Map<string, number>()
  const calls = requests()
  const started = performance.now()
  for (let round = 0; round < ROUNDS; round++) {
    // both clients at once, each with a few requests in flight: every pool thread takes every kind
    await Promise.all(tokens.map(async (bearer, c) => {
      const mine = c === 0 ? calls : calls.slice().reverse()
      let next = 0
      const lane = async (): Promise<void> => {
        while (next < mine.length) {
          const call = mine[next++]!
          const status = await send(bearer, call)
          const key = `${call[0]} ${call[1].split('?')[0]} ${status}`
          statuses.set(key, (statuses.get(key) ?? 0) + 1)
        }
      }
      await Promise.all([lane(), lane(), lane(), job(bearer).then(status => { statuses.set(`job ${status}`, (statuses.get(`job ${status}`) ?? 0) + 1) })])
    }))
  }
  clearInterval(sampler)
  const seconds = (performance.now() - started) / 1000
  console.log(`  ${ROUNDS} rounds of ${calls.length + 1} kinds of request from ${CLIENTS.length} clients at once, ${seconds.toFixed(1)} s; answers: ${[...statuses].sort().map(([k, n]) => `${k} x${n}`).join(', ')}`)
  print('after every kind of request', reading())
  console.log(`  ${'the most seen meanwhile'.padEnd(34)} worker RSS ${peak.map(mb).join(', ')}`)
  if (heapsDir !== undefined) {
    writeFileSync(join(heapsDir, 'trigger'), '')
    for (let waited = 0; !existsSync(join(heapsDir, 'done')) && waited < 120_000; waited += 100) await new Promise(resolve => setTimeout(resolve, 100))
    const heaps = existsSync(join(heapsDir, 'heaps.json')) ? JSON.parse(readFileSync(join(heapsDir, 'heaps.json'), 'utf8')) as Array<{ thread: string, threadId: number, physicalMb: number, usedMb: number, externalMb: number }> : []
    console.log(`  V8 heaps right after (physical / in use + outside the heap): ${heaps.map(h => `${h.thread}${h.threadId === 0 ? '' : ` ${h.threadId}`} ${h.physicalMb.toFixed(0)} / ${h.usedMb.toFixed(0)} + ${h.externalMb.toFixed(0)} MB`).join(', ')}${args.snapshots === undefined ? '' : `; snapshots in ${heapsDir}`}`)
  }
  // V8 shrinks an idle heap (its memory reducer) some seconds after the allocations stop
  let waited = 0
  for (const seconds of [1, 5, 15]) {
    await new Promise(resolve => setTimeout(resolve, (seconds - waited) * 1000))
    waited = seconds
    print(`${seconds} s later`, reading())
  }
} finally {
  await service.child.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
