/**
 * A 100-page DOCX through the service, as a document job with the embedded Apertium engine (en->es),
 * the translation cache off: prints pages per second, the job's time, and the memory it took (the
 * service and its Apertium processes: RSS before, and the most seen while the job ran). The book is
 * real text: the English strings and help texts of the Debian corpus (bench/corpus, built by
 * bench:detect:corpus; else the review sentences of test/data/sentiment-dev.jsonl, which repeat
 * within 100 pages), 500 words a page, some words bold or italic mid-sentence (runs of other
 * formatting travel as tags), a table every ten pages. Builds and starts the service itself.
 *
 *   npx tsx bench/office.ts [--pages 100] [--target es]
 */
import { existsSync, readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir, cpus } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { strToU8, zipSync } from 'fflate'
import { accessToken, startService } from './lib/service.js'
import { memoryOf, processTree } from './lib/proc.js'

const { values: args } = parseArgs({ options: { pages: { type: 'string', default: '100' }, target: { type: 'string', default: 'es' } } })
const PAGES = Number(args.pages)
const WORDS_PER_PAGE = 500
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'
const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'

/** Real English text: the Debian corpus's English strings and help texts (bench:detect:corpus builds it), else the review sentences. */
function englishTexts (): { texts: string[], from: string } {
  const corpus = new URL('corpus/dev-pool.jsonl', import.meta.url)
  if (existsSync(corpus)) {
    const texts = readFileSync(corpus, 'utf8').split('\n').filter(line => line.includes('"lang":"en"'))
      .map(line => (JSON.parse(line) as { text: string }).text.replace(/\s+/g, ' ').trim()).filter(text => text.split(' ').length >= 4)
    return { texts: [...new Set(texts)], from: 'bench/corpus/dev-pool.jsonl (English strings and help texts of Debian packages)' }
  }
  const texts = readFileSync(new URL('../test/data/sentiment-dev.jsonl', import.meta.url), 'utf8')
    .split('\n').filter(line => line.trim() !== '').map(line => (JSON.parse(line) as { text: string }).text)
  return { texts, from: 'test/data/sentiment-dev.jsonl (no bench/corpus: run npm run bench:detect:corpus for more distinct text)' }
}
const { texts: sentences, from } = englishTexts()
const escape = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const run = (text: string, props = ''): string => `<w:r>${props === '' ? '' : `<w:rPr>${props}</w:rPr>`}<w:t xml:space="preserve">${escape(text)}</w:t></w:r>`

/** A paragraph of a few sentences, its fourth word bold (and every third paragraph's seventh italic). */
function paragraph (text: string, n: number): string {
  const words = text.split(' ')
  const runs = words.map((word, i) => {
    const spaced = i < words.length - 1 ? `${word} ` : word
    if (i === 3) return run(spaced, '<w:b/>')
    if (i === 6 && n % 3 === 0) return run(spaced, '<w:i/>')
    return run(spaced)
  })
  return `<w:p>${runs.join('')}</w:p>`
}

let next = 0
let words = 0
const body: string[] = []
for (let page = 0; page < PAGES; page++) {
  let pageWords = 0
  while (pageWords < WORDS_PER_PAGE) {
    const text = [0, 1, 2, 3].map(() => sentences[next++ % sentences.length]!).join(' ')
    body.push(paragraph(text, body.length))
    pageWords += text.split(' ').length
  }
  if (page % 10 === 9) {
    const cell = (text: string): string => `<w:tc><w:p>${run(text)}</w:p></w:tc>`
    body.push(`<w:tbl>${[0, 1, 2].map(() => `<w:tr>${cell(sentences[next++ % sentences.length]!)}${cell(sentences[next++ % sentences.length]!)}</w:tr>`).join('')}</w:tbl>`)
  }
  body.push('<w:p><w:r><w:br w:type="page"/></w:r></w:p>')
  words += pageWords
}
const docx = zipSync({
  '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>'),
  '_rels/.rels': strToU8('<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>'),
  'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document ${W}><w:body>${body.join('')}<w:sectPr/></w:body></w:document>`)
})

const dataDir = mkdtempSync(join(tmpdir(), 'bench-office-'))
// a book holds more text than MAX_TEXT_CHARS's default allows a request (jobs take the same limits)
const service = await startService({ env: { DATA_DIR: dataDir, BODY_LIMIT: String(64 * 1024 * 1024), MAX_TEXT_CHARS: '5000000', TRANSLATION_CACHE_ENTRIES: '0' } })
try {
  const token = await accessToken(service)
  const memory = (): number => memoryOf(processTree(service.child.pid).map(p => p.pid)).rssMb
  const before = memory()
  console.log(`${new Date().toISOString().slice(0, 10)}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`)
  console.log(`a ${PAGES}-page DOCX: ${words} words in ${body.length} paragraphs and tables, ${(docx.length / 1024).toFixed(0)} KB, from ${from}${next > sentences.length ? ` (its ${sentences.length} texts repeat)` : `, ${next} distinct texts`}; en->${args.target} through Apertium, as a document job, cache off`)
  const started = performance.now()
  const created = await fetch(`${service.base}/language/translate/jobs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ document: { value: Buffer.from(docx).toString('base64'), mime_type: DOCX }, source: 'en', targets: [args.target] })
  })
  if (created.status !== 202) throw new Error(`POST jobs: ${created.status} ${await created.text()}`)
  const location = created.headers.get('location')!
  let peak = before
  let state: { status: string, progress: { done: number, total: number }, error?: unknown, result?: { results: Record<string, { value: string }> } }
  for (;;) {
    await new Promise(resolve => setTimeout(resolve, 250))
    peak = Math.max(peak, memory())
    state = await (await fetch(new URL(location, service.base), { headers: { authorization: `Bearer ${token}` } })).json() as typeof state
    if (state.status !== 'queued' && state.status !== 'running') break
  }
  const seconds = (performance.now() - started) / 1000
  if (state.status !== 'done') throw new Error(`the job ended ${state.status}: ${JSON.stringify(state.error)}`)
  const out = Buffer.from(state.result!.results[args.target]!.value, 'base64')
  console.log(`  ${(PAGES / seconds).toFixed(2)} pages/s: ${seconds.toFixed(1)} s for ${PAGES} pages (${state.progress.total} segments), the translated file ${(out.length / 1024).toFixed(0)} KB`)
  console.log(`  memory (service and its Apertium processes, RSS): ${before.toFixed(0)} MB before, at most ${peak.toFixed(0)} MB while the job ran (+${(peak - before).toFixed(0)} MB)`)
} finally {
  await service.child.stop()
  rmSync(dataDir, { recursive: true, force: true })
}
