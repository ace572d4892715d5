/**
 * The editing use case: a document's text edited through the same segments as translation
 * (markup, code, placeholders and JSON keys never reach the editor), by the first editor that can
 * do every requested edit in the text's language: a generative model when configured, else the
 * offline rules. Never the text unchanged as if edited: edits no editor can do are a 503.
 */
import { NothingConfiguredError, UpstreamError, ValidationError, invalidField } from '../../errors.js'
import { UNSURE_BELOW } from '../detection/policy.js'
import type { EditItem, Editor } from '../ports.js'
import { documentChanges, DocumentWork, prepareDocument, textOfDocument, type DocumentRunner, type PreparedDocument } from '../documents/offload.js'
import { isBinaryType, type MimeType } from '../documents/mime.js'
import { noTextMessage } from '../documents/segment.js'
import { canonicalTag, UNDETERMINED } from '../languages.js'
import { openDocument } from '../text-limit.js'
import type { DetectText, DocumentValue } from '../translation/types.js'
import { applyChanges, collapsesSpaces, joinsLines, keepingLineBreaks, type Change } from './changes.js'

export type { Change } from './changes.js'

export interface EditInput {
  document: { value: unknown, mimeType?: string, language?: string }
  edits: readonly EditItem[]
  /** 1..10 */
  toneLevel: number
  /** 0..1 */
  temperature: number
}

export interface Edited {
  value: DocumentValue
  /** The document's language (given, else detected). */
  language: string
  /** The editor that served ("openai", "rules"). */
  editor: string
  changes: Change[]
}

export interface EditingDeps {
  /** In preference order: a generative model first when configured, then the offline rules. */
  editors: readonly Editor[]
  detect: DetectText
  textChars: number
  /** Runs costly documents off the event loop (app.ts: the thread pool); absent, every document is worked inline. */
  documents?: DocumentRunner | undefined
}

export interface Editing {
  edit: (input: EditInput, signal: AbortSignal) => Promise<Edited>
}

export function createEditing (deps: EditingDeps): Editing {
  return { edit: async (input, signal) => await edit(input, deps, signal) }
}

/** "tone (friendly)", "length (shorten)", "grammar". */
const describe = (item: EditItem): string =>
  item.type === 'tone' ? `tone (${item.tone})` : item.type === 'length' ? `length (${item.length})` : item.type

/** English, whose rules do the most, stands in for an unsure detection of a text that spells as English. */
const ENGLISH = 'en'

/** Formats that show a run of white space as one space, and so segment it as one (documents/html.ts, android.ts). */
const SPACES_SHOWN_AS_ONE: ReadonlySet<MimeType> = new Set(['text/html', 'application/vnd.android.strings+xml'])

const noText = (mime: MimeType): ValidationError => invalidField(['document', 'value'], noTextMessage('edit', mime, 'translation'))

/**
 * The language of a document that did not say: detected, but where the detector is unsure (as
 * for a source hint, below UNSURE_BELOW) and an editor finds that the text spells as English
 * ("teh cat" may look Romanian), English.
 */
async function detectedLanguage (text: string, mime: MimeType, deps: EditingDeps, signal: AbortSignal): Promise<string> {
  if (text.trim() === '') throw noText(mime)
  const detected = await deps.detect(text)
  if (detected.language === ENGLISH || detected.confidence >= UNSURE_BELOW) return detected.language
  for (const editor of deps.editors) {
    if (editor.spellsAs !== undefined && await editor.spellsAs(text, ENGLISH, signal)) return ENGLISH
  }
  return detected.language
}

async function edit (input: EditInput, deps: EditingDeps, signal: AbortSignal): Promise<Edited> {
  const { document } = input
  const work = new DocumentWork(deps.documents, signal)
  // a catalog's finished entries are edited in their translation (msgstr, XLIFF target), in place
  const { mime } = await openDocument(document, deps.textChars, work, 'translation')
  // "und" (undetermined) given is no language given: it is detected
  const given = document.language === undefined ? undefined : canonicalTag(document.language, ['document', 'language'])
  const language = given !== undefined && given !== UNDETERMINED
    ? given
    : await detectedLanguage(await textOfDocument(document.value, mime, work, { finished: 'translation' }), mime, deps, signal)

  // placeholders protected as in translation; there is no glossary in an edit request; a
  // corrected sentence is written over its source, its lines kept, not on one line as translated
  const prepare = async (): Promise<PreparedDocument> => await prepareDocument(document.value, mime, { placeholders: true, rules: [], caseSensitive: false, language, finished: 'translation', inPlace: true }, work)
  const editor = deps.editors.find(e => input.edits.every(item => e.cannot(item, language) === undefined))
  if (editor === undefined) {
    // nothing a detector could read ("...", "12345"): no text to edit, as when its language is given
    if (language === UNDETERMINED && (await prepare()).segments.length === 0) throw noText(mime)
    const last = deps.editors.at(-1)
    const why = last === undefined
      ? 'No editor is configured.'
      : `The ${last.name} editor cannot do ${input.edits.flatMap(item => {
          const reason = last.cannot(item, language)
          return reason === undefined ? [] : [`${describe(item)}: ${reason}`]
        }).join('; ')}.`
    throw new NothingConfiguredError('editing', why)
  }

  const prepared = await prepare()
  if (prepared.segments.length === 0) throw noText(mime)
  const edited = prepared.segments.length === 0
    ? []
    : await editor.edit({ language, edits: input.edits, toneLevel: input.toneLevel, temperature: input.temperature, segments: prepared.segments }, signal)
  if (edited.length !== prepared.segments.length) {
    throw new UpstreamError(editor.name, `answered ${edited.length} segments for ${prepared.segments.length}`)
  }
  const [rebuilt] = await prepared.finish([edited.map(e => e.segment)], work)
  const value = rebuilt!.value
  const notes = edited.flatMap(e => e.notes)
  const asked = input.edits.map(item => item.type)
  // the diff of a long text takes a while: on the document runner, within the request's budget
  // a file in base64 (DOCX): the changes are of its text (paragraphs one a line), not of the base64
  const changes = isBinaryType(mime)
    ? await documentChanges(await textOfDocument(document.value, mime, work, { language }), await textOfDocument(value, mime, work, { language }), notes, asked, work)
    : await documentChanges(document.value, value, notes, asked, work)
  // a corrected sentence comes back on one line: its source's line breaks (and a quote's `>`) are put back
  // a change that corrects a word and joins lines at once keeps the lines as they were ("teh\n> " is "the", the "\n> " kept)
  // in HTML, a run of spaces no editor saw (the segment held one) is kept as the source has it
  const reflows = (c: Change): boolean => joinsLines(c) || (SPACES_SHOWN_AS_ONE.has(mime) && collapsesSpaces(c))
  const lineBreaksKept = changes.map(keepingLineBreaks)
  if (typeof document.value === 'string' && typeof value === 'string' && !isBinaryType(mime) && (changes.some(reflows) || lineBreaksKept.some((c, i) => c !== changes[i]))) {
    const kept = lineBreaksKept.filter(c => !reflows(c) && c.original !== c.replacement)
    return { value: applyChanges(document.value, kept), language, editor: editor.name, changes: kept }
  }
  return { value: value as DocumentValue, language, editor: editor.name, changes }
}
