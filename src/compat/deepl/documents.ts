/**
 * DeepL's document API (`POST v2/document`, `v2/document/{document_id}`, `.../result`) on document
 * jobs, as deepl-node's translateDocument() and DeepL's other clients call it: the file is uploaded as
 * a multipart form, becomes a document job of the key's client (src/jobs/), and comes back as a file.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify'
import { Type, type TSchema } from 'typebox'
import { ServiceError, ValidationError, invalidField, type FieldPath } from '../../errors.js'
import type { Formality } from '../../core/formality.js'
import { isFormFile } from '../../http/forms.js'
import { JSON_OR_FORM } from '../keyed.js'
import { withinDeadline } from '../../routes/signal.js'
import { checkOne } from '../../routes/translate.js'
import type { TranslationRequestT } from '../../schemas/translate.js'
import { attachment, contentTypeOf, documentOfFile, extensionOf, fileCharacters, fileContent, fileExtensions, fileJobMessage, fileOfResult, filePart, formatOf } from '../files.js'
import { sourceFromDeepL } from './codes.js'
import type { DeepLUsage } from './usage.js'
import { deeplResponses } from './schemas.js'

const ID_PATTERN = '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'

const Lang = (description: string): TSchema => Type.String({ minLength: 1, maxLength: 64, description })

const DeepLDocumentUpload = Type.Object({
  file: filePart('The document, a file part of the multipart form. Its format is its name\'s extension (or, when the part has no name, `filename`\'s): any format `POST /language/translate` reads (`txt`, `html`, `xlf`, `srt`, `docx`...).'),
  target_lang: Lang('The target, a DeepL code (`ES`, `EN-US`, `PT-BR`).'),
  source_lang: Type.Optional(Lang('The source, a DeepL code; omitted: detected.')),
  filename: Type.Optional(Type.String({ maxLength: 1000, description: 'The file\'s name, when the file part carries none.' })),
  output_format: Type.Optional(Type.String({ maxLength: 20, description: 'The format of the translated file: only the uploaded file\'s own (the service does not convert).' })),
  formality: Type.Optional(Type.Union([Type.Literal('default'), Type.Literal('more'), Type.Literal('less'), Type.Literal('prefer_more'), Type.Literal('prefer_less')])),
  auth_key: Type.Optional(Type.String({ maxLength: 512 }))
}, { additionalProperties: true, description: 'A multipart form; other fields (`glossary_id`...) are accepted and ignored.' })

const DeepLDocumentKey = Type.Object({
  document_key: Type.String({ minLength: 1, maxLength: 200, description: 'The key the upload answered.' }),
  auth_key: Type.Optional(Type.String({ maxLength: 512 }))
}, { additionalProperties: true })

const DeepLDocumentHandle = Type.Object({
  document_id: Type.String({ description: 'The document job\'s id.' }),
  document_key: Type.String({ description: 'A secret to send back with the id for its status and result.' })
})

const DeepLDocumentStatus = Type.Object({
  document_id: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('translating'), Type.Literal('done'), Type.Literal('error')]),
  seconds_remaining: Type.Optional(Type.Integer({ description: 'While translating: an estimate from the segments done so far.' })),
  billed_characters: Type.Optional(Type.Integer({ description: 'When done: the characters of the uploaded text (a binary format: its bytes), as counted in `v2/usage`.' })),
  error_message: Type.Optional(Type.String({ description: 'When error: why.' }))
})

const DocumentParams = Type.Object({ document_id: Type.String({ maxLength: 100 }) })

/** 404 in DeepL's words: an id that is none of this key's client's documents, or a wrong key. */
const notFound = (): ServiceError => new ServiceError(404, 'not-found', 'Not found', 'Document not found')

interface Context {
  app: FastifyInstance
  serve: (method: 'GET' | 'POST', path: string, options: RouteShorthandOptions, handler: RouteHandlerMethod) => void
  /** The DeepL routes' shared options (key hooks, error handler, config). */
  route: RouteShorthandOptions & { config: object }
  doc: (operationId: string, summary: string, description: string) => Record<string, unknown>
  usage: DeepLUsage
  /** DeepL's 400 for a source or target it does not take; else the target as core's tag. */
  checkedLanguages: (sourceLang: string | undefined, targetLang: string) => Promise<string>
  /** Core's field paths in DeepL's names. */
  fieldName: (path: FieldPath) => string
  quotaExceeded: () => ServiceError
  maxFileBytes: number
  deadlineMs: number
}

/** The document job of this client with this id and key, or DeepL's 404. */
async function documentJob (ctx: Context, request: FastifyRequest<{ Params: { document_id: string }, Body: { document_key: string } }>): Promise<NonNullable<Awaited<ReturnType<FastifyInstance['jobs']['get']>>>> {
  const id = request.params.document_id
  if (!new RegExp(ID_PATTERN).test(id)) throw notFound()
  const found = await ctx.app.jobs.get(request.client!.key, id)
  const key = found?.meta?.['deepl_key']
  if (found === undefined || key === undefined) throw notFound()
  const given = Buffer.from(String(request.body.document_key))
  const kept = Buffer.from(key)
  if (given.length !== kept.length || !timingSafeEqual(given, kept)) throw notFound()
  return found
}

export function deeplDocumentRoutes (ctx: Context): void {
  const { app, serve, route, doc } = ctx
  const withFiles = { ...route, config: { ...route.config, files: { names: ['file'], maxBytes: ctx.maxFileBytes } } }

  // DeepL bills only documents translated: one whose job fails or is cancelled has its characters given back, once, by the
  // process that ends the job (whichever, with WORKERS or REDIS_URL: the count is theirs together), whether or not its client asks
  app.jobs.onFinish((status, _seconds, { client, meta }) => {
    const billed = Number(meta?.['billed'])
    const month = meta?.['billed_month']
    if (status === 'done' || meta?.['deepl_key'] === undefined || month === undefined || !(billed > 0)) return
    ctx.usage.giveBack(client, billed, month).catch((err: unknown) => { app.log.warn({ err }, 'a failed document\'s characters could not be given back') })
  })

  serve('POST', '/v2/document', {
    ...withFiles,
    schema: {
      ...doc('deepl_document_upload', 'Upload a document to translate (DeepL\'s POST /v2/document)',
        'A multipart form with `file` (its format by its name\'s extension, or `filename`\'s when the part has no name: any format `POST /language/translate` reads), `target_lang`, `source_lang`, `output_format` (only the file\'s own) and `formality`. The document becomes a document job of the key\'s client (see `POST /language/translate/jobs`); the answer\'s id and key fetch its status and the translated file. Its characters count in `v2/usage` at upload, and are given back when its job fails or is cancelled.'),
      consumes: ['multipart/form-data'],
      body: DeepLDocumentUpload,
      response: deeplResponses(DeepLDocumentHandle, 'The document\'s id and key', true)
    }
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    const body = request.body as { file: unknown, target_lang: string, source_lang?: string, filename?: string, output_format?: string, formality?: Formality }
    if (!isFormFile(body.file)) throw invalidField(['file'], 'must be a file part of a multipart/form-data body')
    const filename = body.file.filename !== '' ? body.file.filename : body.filename ?? ''
    const mime = formatOf(filename)
    if (mime === undefined) throw new ValidationError(`Unsupported file type: "${extensionOf(filename).slice(0, 20) || filename.slice(0, 100)}"; documents of these types are translated: ${fileExtensions().join(', ')}`)
    if (body.output_format !== undefined && formatOf(`x.${body.output_format}`) !== mime) {
      throw invalidField(['output_format'], `Value for 'output_format' not supported: a ${extensionOf(filename)} file is translated into a ${extensionOf(filename)} file only`)
    }
    const target = await ctx.checkedLanguages(body.source_lang, body.target_lang)
    const document = documentOfFile(body.file, mime, 'file')
    const translate: TranslationRequestT = {
      document,
      targets: [target],
      ...(body.source_lang === undefined ? {} : { source: sourceFromDeepL(body.source_lang) }),
      ...(body.formality === undefined ? {} : { options: { formality: body.formality } })
    }
    // what the translation would refuse (its size, a formality) is DeepL's 400 now, not a document billed and failed, as
    // POST /language/translate/jobs checks it; what only reading the file finds (a broken SRT) fails the job
    await withinDeadline(reply, ctx.deadlineMs, async signal => { await checkOne(app, translate, translate.targets.length, signal) })
    const client = request.client!.key
    const billed = fileCharacters(document)
    const reserved = await ctx.usage.reserve(client, billed)
    if (reserved === undefined) throw ctx.quotaExceeded()
    const key = randomBytes(32).toString('hex').toUpperCase()
    // a document not taken (too many jobs: 429) is not billed; one whose job fails is given back when it ends (above)
    const state = await app.jobs.submit(client, JSON.stringify(translate), { deepl_key: key, filename, billed: String(billed), billed_month: reserved.month })
      .catch(async (err: unknown) => { await reserved.giveBack(); throw err })
    return { document_id: state.id, document_key: key }
  })

  serve('POST', '/v2/document/:document_id', {
    ...route,
    schema: {
      ...doc('deepl_document_status', 'A document\'s status (DeepL\'s POST /v2/document/{document_id})',
        '`document_key` in the body. `status`: `queued`, `translating` (with `seconds_remaining` once some of it is done), `done` (with `billed_characters`) or `error` (with `error_message`).'),
      consumes: JSON_OR_FORM,
      params: DocumentParams,
      body: DeepLDocumentKey,
      response: { ...deeplResponses(DeepLDocumentStatus, 'The document\'s status', false), 404: { ...deeplResponses(DeepLDocumentStatus, '', false)[400] as object, description: 'No such document of this key\'s client, or a wrong document_key' } }
    }
  }, async (request: FastifyRequest) => {
    const { state, meta } = await documentJob(ctx, request as FastifyRequest<{ Params: { document_id: string }, Body: { document_key: string } }>)
    const base = { document_id: state.id }
    switch (state.status) {
      case 'queued': return { ...base, status: 'queued' }
      case 'running': {
        const { done, total } = state.progress
        const spent = state.started === undefined ? 0 : (Date.now() - Date.parse(state.started)) / 1000
        // the segments still to do at the pace of those done
        return { ...base, status: 'translating', ...(done > 0 && total >= done ? { seconds_remaining: Math.ceil(spent * (total - done) / done) } : {}) }
      }
      case 'done': return { ...base, status: 'done', billed_characters: Number(meta?.['billed'] ?? 0) }
      case 'failed': return { ...base, status: 'error', error_message: fileJobMessage(state.error, ctx.fieldName) }
      case 'cancelled': return { ...base, status: 'error', error_message: 'The document was cancelled.' }
    }
  })

  serve('POST', '/v2/document/:document_id/result', {
    ...route,
    schema: {
      ...doc('deepl_document_result', 'The translated document (DeepL\'s POST /v2/document/{document_id}/result)',
        '`document_key` in the body; the translated file, of the uploaded file\'s format and name. Before it is done: 503. Once downloaded the document is removed, as DeepL removes it (a second download is a 404).'),
      consumes: JSON_OR_FORM,
      params: DocumentParams,
      body: DeepLDocumentKey,
      response: {
        ...deeplResponses(Type.Unsafe({ type: 'string', format: 'binary' }), 'The translated file', false),
        200: { description: 'The translated file, of the uploaded file\'s format', content: fileContent() },
        404: { ...deeplResponses(DeepLDocumentStatus, '', false)[400] as object, description: 'No such document of this key\'s client, or a wrong document_key' }
      }
    }
  }, async (request: FastifyRequest, reply: FastifyReply) => {
    const found = await documentJob(ctx, request as FastifyRequest<{ Params: { document_id: string }, Body: { document_key: string } }>)
    if (found.state.status !== 'done' || found.result === undefined) {
      throw new ServiceError(503, 'document-not-ready', 'Document not ready', found.state.status === 'failed' || found.state.status === 'cancelled'
        ? 'Document translation failed; its status says why.'
        : 'Document translation is not done yet.')
    }
    const { bytes, mime } = fileOfResult(found.result)
    // downloaded, it is removed, as DeepL removes it: what it kept no longer counts against JOB_STORAGE_PER_CLIENT
    await app.jobs.cancel(request.client!.key, found.state.id)
    return await reply.type(contentTypeOf(mime)).header('content-disposition', attachment(found.meta?.['filename'] ?? 'document')).send(bytes)
  })
}
