/**
 * LibreTranslate's file translation over real HTTP with the real Apertium engine, as its own web
 * front end calls it (libretranslate/static/js/app.js translateFile: a FormData of file, source,
 * target and api_key posted to /translate_file, then the translatedFileUrl fetched): the link, the
 * file it gives, its secret, /frontend/settings, and the refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../../../helpers/app.js'

const KEY = 'libre-files-key-0123456789'
// a client of its own for the Go client's file: its job counts against none of the other tests' room
const GO_KEY = 'libre-files-go-key-0123456789'
const CLIENTS = JSON.stringify([{ id: 'libre-files', secret: 'libre-files-secret', scopes: ['access'], api_keys: [KEY] }, { id: 'libre-files-go', api_keys: [GO_KEY] }])

let app: FastifyInstance
let address: string
beforeAll(async () => {
  app = await testApp({ AUTH_CLIENTS: CLIENTS }, { engines: true })
  address = await app.listen({ port: 0, host: '127.0.0.1' })
}, 60_000)
afterAll(async () => { await app?.close() })

/** The front end's request: file, source, target, api_key as a multipart form. */
async function translateFile (path: string, name: string, content: string, fields: Record<string, string> = { source: 'en', target: 'es', api_key: KEY }): Promise<Response> {
  const data = new FormData()
  data.append('file', new Blob([content]), name)
  for (const [k, v] of Object.entries(fields)) data.append(k, v)
  return await fetch(address + path, { method: 'POST', body: data })
}

async function direct (value: string, mime: string): Promise<string> {
  const token = await tokenFor(app, { id: 'libre-files', secret: 'libre-files-secret' })
  const res = await app.inject({ method: 'POST', url: '/language/translate', headers: bearer(token), payload: { document: { value, mime_type: mime }, source: 'en', targets: ['es'] } })
  return res.json().results.es.value as string
}

describe('POST /translate_file', () => {
  it.each([
    { path: '/translate_file', name: 'letter.txt', mime: 'text/plain', text: 'The red car is very fast.\nThe house is big.\n', prefix: '' },
    { path: '/libretranslate/translate_file', name: 'page.html', mime: 'text/html', text: '<p>The red car is <b>very</b> fast.</p>', prefix: '/libretranslate' }
  ])('$name at $path: a link on this host, which gives the translated file without a key', async ({ path, name, mime, text, prefix }) => {
    const res = await translateFile(path, name, text)
    expect(res.status, await res.clone().text()).toBe(200)
    const { translatedFileUrl } = await res.json() as { translatedFileUrl: string }
    expect(translatedFileUrl.startsWith(`${address}${prefix}/download_file/`)).toBe(true)
    expect(translatedFileUrl.endsWith(name)).toBe(true)
    const file = await fetch(translatedFileUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toContain(`filename="${name}"`)
    const translated = await file.text()
    expect(translated).toBe(await direct(text, mime))
    expect(translated).toMatch(/coche rojo/)
    // the link's secret is all it takes, and nothing else does
    const url = new URL(translatedFileUrl)
    const parts = url.pathname.split('/').pop()!.split('.')
    parts[2] = parts[2]!.replace(/^./, c => c === '0' ? '1' : '0')
    expect((await fetch(`${url.origin}${prefix}/download_file/${parts.join('.')}`)).status).toBe(404)
    expect((await fetch(`${url.origin}${prefix}/download_file/${parts.slice(1).join('.')}`)).status).toBe(404)
  }, 60_000)

  it('keeps a UTF-8 byte order mark, as the JSON route does (subtitle files are often saved with one)', async () => {
    const srt = '\uFEFF1\n00:00:01,000 --> 00:00:02,000\nThe red car is very fast.\n'
    const res = await translateFile('/translate_file', 'movie.srt', srt)
    expect(res.status, await res.clone().text()).toBe(200)
    const bytes = Buffer.from(await (await fetch((await res.json() as { translatedFileUrl: string }).translatedFileUrl)).arrayBuffer())
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const expected = await direct(srt, 'application/x-subrip')
    expect(expected.startsWith('\uFEFF1\n')).toBe(true)
    expect(bytes.toString('utf8')).toBe(expected)
  }, 60_000)

  it('reads a file name with quoted-pair escapes, as Go\'s mime/multipart writes it (the whole form was a 400)', async () => {
    const boundary = 'go-multipart-boundary'
    const form = [
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="My \\"Best\\" Report.txt"\r\nContent-Type: application/octet-stream\r\n\r\nThe red car.\r\n`,
      ...Object.entries({ source: 'en', target: 'es', api_key: GO_KEY }).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      `--${boundary}--\r\n`
    ].join('')
    const res = await fetch(`${address}/translate_file`, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: form })
    expect(res.status, await res.clone().text()).toBe(200)
    const file = await fetch((await res.json() as { translatedFileUrl: string }).translatedFileUrl)
    expect(file.status).toBe(200)
    expect(file.headers.get('content-disposition')).toContain(`filename*=UTF-8''${encodeURIComponent('My "Best" Report.txt')}`)
    expect(await file.text()).toBe(await direct('The red car.', 'text/plain'))
  })

  it('refuses what it cannot translate and a request without a key, in LibreTranslate\'s shape', async () => {
    const pdf = await translateFile('/translate_file', 'scan.pdf', '%PDF-1.4')
    expect(pdf.status).toBe(400)
    expect((await pdf.json() as { error: string }).error).toMatch(/not supported.*\.txt/)
    // the file's errors name the form's field, not core's JSON pointer (a probe got "/document/value: ...")
    const docx = await translateFile('/translate_file', 'report.docx', 'not a zip at all')
    expect(docx.status).toBe(400)
    expect((await docx.json() as { error: string }).error).toMatch(/^file: the DOCX file is not a ZIP/)
    const srt = await translateFile('/translate_file', 'movie.srt', '1\n00:00:01,000 --> soon\nThe red car.\n')
    expect(srt.status).toBe(400)
    expect((await srt.json() as { error: string }).error).toMatch(/^file: /)
    const too = await translateFile('/translate_file', 'a.txt', 'Hello.', { source: 'en', target: 'xx', api_key: KEY })
    expect(too.status).toBe(400)
    expect((await too.json() as { error: string }).error).toMatch(/target/)
    const keyless = await translateFile('/translate_file', 'a.txt', 'Hello.', { source: 'en', target: 'es' })
    expect(keyless.status).toBe(400)
    expect(await keyless.json()).toEqual({ error: 'Please contact the server operator to get an API key' })
    const data = new FormData()
    data.append('source', 'en')
    data.append('target', 'es')
    data.append('api_key', KEY)
    const none = await fetch(`${address}/translate_file`, { method: 'POST', body: data })
    expect(none.status).toBe(400)
    expect((await none.json() as { error: string }).error).toMatch(/file/)
  })

  it('/frontend/settings says files are translated, and which', async () => {
    const settings = await (await fetch(`${address}/frontend/settings`)).json() as { filesTranslation: boolean, supportedFilesFormat: string[] }
    expect(settings.filesTranslation).toBe(true)
    expect(settings.supportedFilesFormat).toEqual(expect.arrayContaining(['.txt', '.html', '.xlf', '.srt', '.docx']))
    expect(settings.supportedFilesFormat).not.toContain('.pdf')
  })
})

describe('a file whose translation its client\'s jobs have no room for', () => {
  it('is a 429 with Retry-After, and leaves nothing behind to count against the client (a probe\'s failed job, whose id the client never learns, kept its request for JOB_TTL)', async () => {
    const small = await testApp({ AUTH_CLIENTS: CLIENTS, JOB_STORAGE_PER_CLIENT: '6000' }, { engines: true })
    try {
      const post = async (text: string): Promise<{ status: number, retryAfter: string | undefined, body: string }> => {
        const data = new FormData()
        data.append('file', new Blob([text]), 'letter.txt')
        for (const [k, v] of Object.entries({ source: 'en', target: 'es', api_key: KEY })) data.append(k, v)
        const body = new Response(data)
        const res = await small.inject({ method: 'POST', url: '/translate_file', headers: { 'content-type': body.headers.get('content-type')! }, payload: Buffer.from(await body.arrayBuffer()) })
        return { status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined, body: res.body }
      }
      // room for its request, not for its result (the translation and the request it echoes)
      const refused = await post('The red car is here. '.repeat(100))
      expect(refused.status, refused.body).toBe(429)
      expect(Number(refused.retryAfter)).toBeGreaterThan(0)
      // the refused job kept nothing: a file that fits alone fits
      const fits = await post('The red car is here. '.repeat(60))
      expect(fits.status, fits.body).toBe(200)
    } finally {
      await small.close()
    }
  }, 60_000)
})
