/**
 * DeepL's document API over real HTTP with the real Apertium engine: the official deepl-node
 * client's translateDocument() unchanged (a .txt and an .html file, at the root and at /deepl), the
 * status and result routes as its clients call them, who sees a document, and the refusals (a type
 * not translated, an output_format that is not the file's own, a file part where none is read).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { Translator } from 'deepl-node'
import type { Jobs } from '../../../../src/jobs/queue.js'
import { bearer, testApp, tokenFor } from '../../../helpers/app.js'

const KEY = 'deepl-documents-key-0123456789'
const OTHER_KEY = 'deepl-documents-other-key-0123456789'
const CLIENTS = JSON.stringify([
  { id: 'deepl-docs', secret: 'deepl-docs-secret', scopes: ['access'], api_keys: [KEY] },
  { id: 'deepl-other', api_keys: [OTHER_KEY] }
])

let app: FastifyInstance
let address: string
let files: string
beforeAll(async () => {
  app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true })
  address = await app.listen({ port: 0, host: '127.0.0.1' })
  files = mkdtempSync(join(tmpdir(), 'deepl-documents-'))
}, 60_000)
afterAll(async () => {
  await app?.close()
  rmSync(files, { recursive: true, force: true })
})

/** What POST /language/translate answers for the same document (the job's work is that translation). */
async function direct (value: string, mime: string): Promise<string> {
  const token = await tokenFor(app, { id: 'deepl-docs', secret: 'deepl-docs-secret' })
  const res = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(token), payload: { document: { value, mime_type: mime }, source: 'en', targets: ['es'] } })
  expect(res.statusCode, res.body).toBe(200)
  return res.json().results.es.value as string
}

async function upload (form: FormData, key = KEY, path = '/v2/document'): Promise<Response> {
  return await fetch(address + path, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${key}` }, body: form })
}

function textFile (name: string, text: string, field = 'file'): FormData {
  const form = new FormData()
  form.append(field, new Blob([text], { type: 'text/plain' }), name)
  form.append('target_lang', 'ES')
  form.append('source_lang', 'EN')
  return form
}

async function usageOf (key: string): Promise<number> {
  return (await (await fetch(`${address}/v2/usage`, { headers: { authorization: `DeepL-Auth-Key ${key}` } })).json() as { character_count: number }).character_count
}

/** The document's status once it reads `status` (polled). */
async function statusUntil (handle: { document_id: string, document_key: string }, status: 'done' | 'error'): Promise<Record<string, unknown>> {
  let state: Record<string, unknown> = {}
  for (let i = 0; i < 400 && state['status'] !== status; i++) {
    if (i > 0) await new Promise(resolve => setTimeout(resolve, 50))
    state = await (await fetch(`${address}/v2/document/${handle.document_id}`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })).json() as Record<string, unknown>
  }
  return state
}

describe('deepl-node translateDocument()', () => {
  it.each([
    { name: 'a .txt file, server URL at the root', file: 'letter.txt', mime: 'text/plain', text: 'The red car is very fast.\nThe house is big.\n', server: '' },
    { name: 'an .html file, server URL /deepl', file: 'page.html', mime: 'text/html', text: '<!doctype html><html><head><title>The house</title></head><body><p>The red car is <b>very</b> fast.</p></body></html>', server: '/deepl' }
  ])('$name: the translated file, as POST /language/translate translates it', async ({ file, mime, text, server }) => {
    const input = join(files, file)
    const output = join(files, `out-${file}`)
    writeFileSync(input, text)
    const translator = new Translator(KEY, { serverUrl: address + server, maxRetries: 0 })
    const status = await translator.translateDocument(input, output, 'en', 'es')
    expect(status.done()).toBe(true)
    expect(status.billedCharacters).toBe(text.length)
    const translated = readFileSync(output, 'utf8')
    expect(translated).toBe(await direct(text, mime))
    expect(translated).toMatch(/coche rojo/)
  }, 60_000)

  it('a type no format of the service reads is refused at upload, in DeepL\'s shape', async () => {
    const input = join(files, 'scan.pdf')
    writeFileSync(input, '%PDF-1.4 not really')
    const translator = new Translator(KEY, { serverUrl: address, maxRetries: 0 })
    await expect(translator.translateDocument(input, join(files, 'out-scan.pdf'), 'en', 'es')).rejects.toThrow(/Unsupported file type/)
  })
})

describe('POST /v2/document, its status and its result', () => {
  it('answers id and key, then status until done, then the file with its name; another client and a wrong key get 404', async () => {
    const res = await upload(textFile('notes.txt', 'Good morning.'))
    expect(res.status).toBe(200)
    const handle = await res.json() as { document_id: string, document_key: string }
    expect(handle.document_key).toMatch(/^[0-9A-F]{64}$/)
    const status = async (key: string, documentKey: string): Promise<Response> =>
      await fetch(`${address}/v2/document/${handle.document_id}`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${key}`, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ document_key: documentKey }) })
    let state: Record<string, unknown> = {}
    for (let i = 0; i < 200 && state['status'] !== 'done'; i++) {
      const answer = await status(KEY, handle.document_key)
      expect(answer.status).toBe(200)
      state = await answer.json() as Record<string, unknown>
      expect(['queued', 'translating', 'done']).toContain(state['status'])
      if (state['status'] !== 'done') await new Promise(resolve => setTimeout(resolve, 50))
    }
    expect(state).toEqual({ document_id: handle.document_id, status: 'done', billed_characters: 13 })
    expect((await status(OTHER_KEY, handle.document_key)).status).toBe(404)
    expect(await (await status(KEY, 'A'.repeat(64))).json()).toEqual({ message: 'Document not found' })
    const result = await fetch(`${address}/deepl/v2/document/${handle.document_id}/result`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })
    expect(result.status).toBe(200)
    expect(result.headers.get('content-type')).toBe('text/plain; charset=utf-8')
    expect(result.headers.get('content-disposition')).toMatch(/filename="notes.txt"/)
    expect(await result.text()).toBe(await direct('Good morning.', 'text/plain'))
    // downloaded, it is gone, as DeepL's: what it kept no longer counts against the client's job storage
    const again = await fetch(`${address}/deepl/v2/document/${handle.document_id}/result`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })
    expect(again.status).toBe(404)
    expect((await status(KEY, handle.document_key)).status).toBe(404)
  })

  it('refuses an output_format that is not the file\'s own, a file that is not UTF-8 text, and a missing file', async () => {
    const converting = textFile('a.txt', 'Hello.')
    converting.append('output_format', 'docx')
    const res = await upload(converting)
    expect(res.status).toBe(400)
    expect((await res.json() as { message: string }).message).toMatch(/output_format/)
    const form = new FormData()
    form.append('file', new Blob([Buffer.from([0xff, 0xfe, 0x41])]), 'latin.txt')
    form.append('target_lang', 'ES')
    const latin = await upload(form)
    expect(latin.status).toBe(400)
    expect((await latin.json() as { message: string }).message).toMatch(/UTF-8/)
    const none = new FormData()
    none.append('target_lang', 'ES')
    const missing = await upload(none)
    expect(missing.status).toBe(400)
    expect((await missing.json() as { message: string }).message).toMatch(/file/)
  })

  it('refuses at upload, unbilled, what the translation refuses before any work (a probe\'s uploads were billed, then failed): too much text, a pair, a formality, a source variant', async () => {
    const usage = async (): Promise<number> => (await (await fetch(`${address}/v2/usage`, { headers: { authorization: `DeepL-Auth-Key ${KEY}` } })).json() as { character_count: number }).character_count
    const before = await usage()
    const refused = async (form: FormData, status: number, message: RegExp): Promise<void> => {
      const res = await upload(form)
      const body = await res.json() as { message: string }
      expect(res.status, body.message).toBe(status)
      expect(body.message).toMatch(message)
    }
    await refused(textFile('big.txt', 'The red car. '.repeat(8000)), 413, /100000 characters/)
    const russian = textFile('a.txt', 'Hello.')
    russian.set('target_lang', 'RU')
    await refused(russian, 400, /^target_lang: .*en->ru|^target_lang: .*not supported/)
    const informal = textFile('a.txt', 'Hello.')
    informal.append('formality', 'less')
    await refused(informal, 400, /^formality: /)
    const variant = textFile('a.txt', 'Hello.')
    variant.set('source_lang', 'EN-GB')
    await refused(variant, 400, /Value for 'source_lang' not supported/)
    expect(await usage()).toBe(before)
  })

  it('a file found broken when its job reads it: the status names the file, not core\'s JSON pointer', async () => {
    const broken = textFile('movie.srt', '1\n00:00:01,000 --> 00:00:02,000\nThe red car.\n\n2\n00:00:03,000 --> soon\nThe blue car.\n')
    // a DOCX that is no ZIP is refused at upload, named so
    const docx = new FormData()
    docx.append('file', new Blob([Buffer.from('not a zip at all')]), 'report.docx')
    docx.append('target_lang', 'ES')
    const refused = await upload(docx)
    expect(refused.status).toBe(400)
    expect((await refused.json() as { message: string }).message).toMatch(/^file: the DOCX file is not a ZIP/)
    const uploaded = await upload(broken)
    const handle = await uploaded.json() as { document_id: string, document_key: string }
    expect(uploaded.status, JSON.stringify(handle)).toBe(200)
    let state: Record<string, unknown> = {}
    for (let i = 0; i < 200 && state['status'] !== 'error'; i++) {
      state = await (await fetch(`${address}/v2/document/${handle.document_id}`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })).json() as Record<string, unknown>
      if (state['status'] !== 'error') await new Promise(resolve => setTimeout(resolve, 50))
    }
    expect(state['status']).toBe('error')
    expect(state['error_message']).toMatch(/^file: /)
  })

  it('the file part\'s name wins over the `filename` field (a .pdf named there refused a .txt part)', async () => {
    const form = textFile('notes.txt', 'Good morning.')
    form.append('filename', 'notes.pdf')
    const named = await upload(form)
    expect(named.status, await named.clone().text()).toBe(200)
    const handle = await named.json() as { document_id: string, document_key: string }
    await statusUntil(handle, 'done')
    const result = await fetch(`${address}/v2/document/${handle.document_id}/result`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })
    expect(result.headers.get('content-disposition')).toMatch(/filename="notes.txt"/)
  })

  it('reads a file name with quoted-pair escapes, as Go\'s mime/multipart writes it (the whole form was a 400)', async () => {
    const boundary = 'go-multipart-boundary'
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="My \\"Best\\" Report.txt"\r\nContent-Type: application/octet-stream\r\n\r\nGood morning.\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="target_lang"\r\n\r\nES\r\n--${boundary}--\r\n`
    const res = await fetch(`${address}/v2/document`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: form })
    expect(res.status, await res.clone().text()).toBe(200)
    const handle = await res.json() as { document_id: string, document_key: string }
    await statusUntil(handle, 'done')
    const result = await fetch(`${address}/v2/document/${handle.document_id}/result`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })
    expect(result.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('My "Best" Report.txt')}`)
  })

  it('a document whose job fails or is cancelled is not billed; one translated stays billed', async () => {
    const before = await usageOf(KEY)
    const broken = textFile('movie.srt', '1\n00:00:01,000 --> 00:00:02,000\nThe red car.\n\n2\n00:00:03,000 --> soon\nThe blue car.\n')
    const failed = await (await upload(broken)).json() as { document_id: string, document_key: string }
    expect(await usageOf(KEY)).toBeGreaterThan(before)
    expect((await statusUntil(failed, 'error'))['error_message']).toMatch(/^file: /)
    await expect.poll(async () => await usageOf(KEY)).toBe(before)

    const long = Array.from({ length: 3000 }, (_, i) => `The red car number ${i} is fast.`).join('\n')
    const cancelled = await (await upload(textFile('long.txt', long))).json() as { document_id: string, document_key: string }
    expect(await usageOf(KEY)).toBe(before + long.length)
    const token = await tokenFor(app, { id: 'deepl-docs', secret: 'deepl-docs-secret' })
    expect((await app.inject({ method: 'DELETE', url: `/language/translate/jobs/${cancelled.document_id}`, headers: bearer(token) })).statusCode).toBe(204)
    expect(await statusUntil(cancelled, 'error')).toMatchObject({ error_message: 'The document was cancelled.' })
    await expect.poll(async () => await usageOf(KEY)).toBe(before)

    const done = await (await upload(textFile('notes.txt', 'Good morning.'))).json() as { document_id: string, document_key: string }
    expect(await statusUntil(done, 'done')).toMatchObject({ billed_characters: 13 })
    expect(await usageOf(KEY)).toBe(before + 13)
  }, 30_000)

  it('a document whose result on disk is damaged reads error, and its result is DeepL\'s 503, not a 500', async () => {
    const handle = await (await upload(textFile('notes.txt', 'Good morning.'))).json() as { document_id: string, document_key: string }
    await statusUntil(handle, 'done')
    const jobs = join((app.jobs as Jobs).store.dir, 'jobs')
    const folder = readdirSync(jobs).map(client => join(jobs, client, handle.document_id)).find(dir => existsSync(dir))!
    writeFileSync(join(folder, 'result.json'), '{"results":{"es":{"value":"Buenos')
    expect(await statusUntil(handle, 'error')).toMatchObject({ error_message: expect.stringMatching(/damaged/) })
    const result = await fetch(`${address}/v2/document/${handle.document_id}/result`, { method: 'POST', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ document_key: handle.document_key }) })
    expect(result.status).toBe(503)
    expect(await result.json()).toEqual({ message: 'Document translation failed; its status says why.' })
  })

  it('a file part is read on these routes only: /v2/translate refuses one', async () => {
    const res = await upload(textFile('a.txt', 'Hello.', 'text'), KEY, '/v2/translate')
    expect(res.status).toBe(400)
    expect((await res.json() as { message: string }).message).toMatch(/file is not read here/)
  })
})

describe('an upload the job queue refuses', () => {
  it('a 429 (JOB_MAX_PER_CLIENT) is not billed (a probe\'s usage grew by the refused file)', async () => {
    const busy = await testApp({ AUTH_CLIENTS: CLIENTS, JOB_MAX_PER_CLIENT: '1' }, { engines: true })
    try {
      const post = async (form: FormData): Promise<{ status: number, body: unknown }> => {
        const body = new Response(form)
        const res = await busy.inject({ method: 'POST', url: '/v2/document', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': body.headers.get('content-type')! }, payload: Buffer.from(await body.arrayBuffer()) })
        return { status: res.statusCode, body: res.json() }
      }
      const usage = async (): Promise<number> => (await busy.inject({ url: '/v2/usage', headers: { authorization: `DeepL-Auth-Key ${KEY}` } })).json().character_count
      // a long file keeps the one job the client may have running while the second comes
      const first = await post(textFile('long.txt', Array.from({ length: 3000 }, (_, i) => `The red car number ${i} is fast.`).join('\n')))
      expect(first.status).toBe(200)
      const billed = await usage()
      const second = await post(textFile('short.txt', 'Good morning.'))
      expect(second.status, JSON.stringify(second.body)).toBe(429)
      expect(await usage()).toBe(billed)
    } finally {
      await busy.close()
    }
  }, 60_000)
})

describe('the file cap', () => {
  it('a file over BODY_LIMIT is a 413', async () => {
    const small = await testApp({ AUTH_CLIENTS: CLIENTS, BODY_LIMIT: '2048' })
    try {
      const form = textFile('big.txt', 'word '.repeat(1000))
      const body = new Response(form)
      const res = await small.inject({ method: 'POST', url: '/v2/document', headers: { authorization: `DeepL-Auth-Key ${KEY}`, 'content-type': body.headers.get('content-type')! }, payload: Buffer.from(await body.arrayBuffer()) })
      expect(res.statusCode).toBe(413)
    } finally {
      await small.close()
    }
  })
})
