/**
 * LibreTranslate's file translation: `POST translate_file` (multipart `file`, `source`, `target`,
 * `api_key`) translates the file as a document job of the key's client and, once it is done,
 * answers `{translatedFileUrl}`; `GET download_file/{name}` is that URL. As LibreTranslate's, the
 * link needs no key: it carries a random secret of its own (compared in constant time).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import { Type } from 'typebox'
import { ServiceError, ValidationError, invalidField, type FieldPath } from '../../errors.js'
import { withinDeadline } from '../../routes/signal.js'
import { isFormFile } from '../../http/forms.js'
import { originOf } from '../../http/host.js'
import { checkOne } from '../../routes/translate.js'
import type { TranslationRequestT } from '../../schemas/translate.js'
import { attachment, contentTypeOf, documentOfFile, extensionOf, fileContent, fileExtensions, fileJobMessage, fileOfResult, filePart, formatOf } from '../files.js'
import { fromLibreTranslate } from './codes.js'
import { ltResponses } from './schemas.js'
import { TOO_MANY_JOBS_RETRY_SECONDS } from '../../jobs/queue.js'

const LtFileRequest = Type.Object({
  file: filePart('The file, a file part of the multipart form; its format is its name\'s extension (any format `POST /language/translate` reads: `txt`, `html`, `docx`...).'),
  source: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'A language code, or `auto` (the default): detected.' })),
  target: Type.String({ minLength: 1, maxLength: 64, description: 'A language code.' }),
  api_key: Type.Optional(Type.String({ maxLength: 512 }))
}, { additionalProperties: true })

const LtFileResponse = Type.Object({
  translatedFileUrl: Type.String({ description: 'Where to download the translated file (no key needed: the link is the secret), until JOB_TTL after it was translated.' })
})

/** How often translate_file looks at its job while it waits. */
const POLL_MS = 100

/** The formats LibreTranslate's front end lists (`.txt`, `.html`, ...), of those core reads. */
export function supportedFilesFormat (): string[] {
  return fileExtensions().map(ext => `.${ext}`)
}

/** A download name: the client's folder, the job, the link's secret and the file's name, as LibreTranslate's `<uuid>.<filename>`. */
const LINK = /^([0-9a-f]{32})\.([0-9a-f-]{36})\.([0-9a-f]{32})\.([\w.-]{1,60})$/

export function libretranslateFileRoutes (app: FastifyInstance, opts: {
  keyedRoute: RouteShorthandOptions & { config: object }
  openRoute: RouteShorthandOptions
  doc: (operationId: string, summary: string, description: string) => Record<string, unknown>
  deadlineMs: number
  /** Core's field paths in LibreTranslate's names. */
  fieldName: (path: FieldPath) => string
  maxFileBytes: number
}): void {
  app.post('/translate_file', {
    ...opts.keyedRoute,
    config: { ...opts.keyedRoute.config, files: { names: ['file'], maxBytes: opts.maxFileBytes } },
    schema: {
      ...opts.doc('libretranslate_translate_file', 'Translate a file (LibreTranslate\'s POST /translate_file)',
        'A multipart form with `file`, `source` (or `auto`), `target` and `api_key`. The file is translated as a document job of the key\'s client (see `POST /language/translate/jobs`) and the answer, once it is done (within HANDLER_TIMEOUT_MS), is the link to the translated file. Formats: as `/frontend/settings` lists them.'),
      consumes: ['multipart/form-data'],
      body: LtFileRequest,
      response: ltResponses(LtFileResponse, 'The link to the translated file', true)
    }
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    // the link is on the host asked: a request naming none is refused before any work
    const base = `${originOf(request)}${app.prefix}`
    const body = request.body as { file: unknown, source?: string, target: string }
    if (!isFormFile(body.file)) throw invalidField(['file'], 'Invalid request: missing file parameter')
    const filename = body.file.filename === '' ? 'file.txt' : body.file.filename
    const mime = formatOf(filename)
    if (mime === undefined) throw new ValidationError(`Invalid request: file format ${extensionOf(filename).slice(0, 20) || '(none)'} is not supported; supported: ${supportedFilesFormat().join(', ')}`)
    const auto = body.source === undefined || body.source.toLowerCase() === 'auto'
    const translate: TranslationRequestT = {
      document: documentOfFile(body.file, mime, 'file'),
      targets: [fromLibreTranslate(body.target)],
      ...(auto ? {} : { source: fromLibreTranslate(body.source!) })
    }
    // what the translation would refuse before any work is answered as such, not as a failed file
    await withinDeadline(reply, opts.deadlineMs, async signal => { await checkOne(app, translate, translate.targets.length, signal) })
    const client = request.client!.key
    const secret = randomBytes(16).toString('hex')
    const { id } = await app.jobs.submit(client, JSON.stringify(translate), { link_key: secret, filename })
    // LibreTranslate answers once the file is translated: the request waits for its job
    const state = await withinDeadline(reply, opts.deadlineMs, async signal => {
      for (;;) {
        const found = await app.jobs.get(client, id)
        if (found === undefined || (found.state.status !== 'queued' && found.state.status !== 'running')) return found?.state
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, POLL_MS)
          signal.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason) }, { once: true })
        })
      }
    }).catch(async (err: unknown) => {
      // nobody will fetch it: its work stops
      await app.jobs.cancel(client, id)
      throw err
    })
    if (state?.status !== 'done') {
      const error = state?.error
      // the client never learns the job's id: a failed one is removed, not left to count against its JOB_STORAGE_PER_CLIENT
      await app.jobs.cancel(client, id)
      const status = error?.status ?? 500
      throw new ServiceError(status, 'file-not-translated', error?.title ?? 'Not translated', fileJobMessage(error, opts.fieldName),
        status === 429 ? { headers: { 'retry-after': String(TOO_MANY_JOBS_RETRY_SECONDS) } } : {})
    }
    // the name in the link is for show (the router bounds a path parameter's length): the download is named as uploaded
    const shown = filename.replace(/[^\w.-]/g, '_').slice(-60)
    return { translatedFileUrl: `${base}/download_file/${app.jobs.clientFolder(client)}.${id}.${secret}.${shown}` }
  })

  app.get('/download_file/:name', {
    ...opts.openRoute,
    schema: {
      ...opts.doc('libretranslate_download_file', 'A translated file (the link POST /translate_file answers)',
        'No key: the link carries a secret of its own. The file is there until JOB_TTL after it was translated; then, or for a link that is not one, 404.'),
      params: Type.Object({ name: Type.String({ maxLength: 200 }) }),
      response: { ...ltResponses(LtFileResponse, 'The translated file', false), 200: { description: 'The translated file, of the uploaded file\'s format', content: fileContent() }, 404: { ...(ltResponses(LtFileResponse, '', false)[400] as object), description: 'No such file' } }
    }
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    const name = (request.params as { name: string }).name
    const gone = (): ServiceError => new ServiceError(404, 'not-found', 'Not found', 'File not found')
    const link = LINK.exec(name)
    if (link === null) throw gone()
    const [, folder, id, secret, filename] = link as unknown as [string, string, string, string, string]
    const found = await app.jobs.find(folder, id)
    const kept = found?.meta?.['link_key']
    if (found === undefined || kept === undefined || found.result === undefined) throw gone()
    if (kept.length !== secret.length || !timingSafeEqual(Buffer.from(secret), Buffer.from(kept))) throw gone()
    const { bytes, mime } = fileOfResult(found.result)
    return await reply.type(contentTypeOf(mime)).header('content-disposition', attachment(found.meta?.['filename'] ?? filename)).send(bytes)
  })
}
