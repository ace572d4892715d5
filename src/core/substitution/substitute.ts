/** The substitution use case: glossary rules applied to a document in its own language (given, else detected). */
import { DocumentWork, substituteInDocument, textOfDocument, type DocumentRunner } from '../documents/offload.js'
import { checkRuleTags, rulesForLanguage, type AppliedSubstitution, type Substitution } from '../glossary.js'
import { canonicalTag, UNDETERMINED } from '../languages.js'
import { openDocument } from '../text-limit.js'
import { invalidField } from '../../errors.js'
import { noTextMessage, type MimeType } from '../documents/segment.js'
import type { DetectText, DocumentValue } from '../translation/types.js'

export interface SubstituteInput {
  document: { value: DocumentValue, mimeType?: string, language?: string }
  substitutions: readonly Substitution[]
  caseSensitive: boolean
}

export interface Substituted {
  value: DocumentValue
  /** The document's language when it was given or detected (absent when no rule needed it). */
  language?: string
  applied: AppliedSubstitution[]
}

export type Substitute = (input: SubstituteInput, signal?: AbortSignal) => Promise<Substituted>

/** The catalogs whose translations (not sources) are substituted in. */
const CATALOGS = new Set<MimeType>(['text/x-gettext-translation', 'application/xliff+xml'])

export function createSubstitution (detect: DetectText, textChars: number, documents?: DocumentRunner): Substitute {
  return async ({ document, substitutions: rules, caseSensitive }, signal) => {
    const work = new DocumentWork(documents, signal)
    // a catalog's finished entries are substituted in their translation (msgstr, XLIFF target), in place
    const { mime } = await openDocument(document, textChars, work, 'translation')
    checkRuleTags(rules)
    // a catalog holding no translation has nothing to substitute in: its sources are not its translations
    if (CATALOGS.has(mime) && (await textOfDocument(document.value, mime, work, { finished: 'translation' })).trim() === '') {
      throw invalidField(['document', 'value'], noTextMessage('substitute in', mime, 'translation'))
    }
    // the language matters only when a rule names one; "und" (undetermined) given is none given, as in analyze and edit
    const given = document.language === undefined ? undefined : canonicalTag(document.language, ['document', 'language'])
    let language = given === UNDETERMINED ? undefined : given
    if (language === undefined && rules.some(r => r.source !== undefined || r.target !== undefined)) {
      language = (await detect(await textOfDocument(document.value, mime, work, { finished: 'translation' }))).language
    }
    const { value, applied } = await substituteInDocument(document.value, mime, rulesForLanguage(rules, language ?? UNDETERMINED), { caseSensitive, finished: 'translation' }, work)
    // substituteInDocument gives back the shape it was given: a Document value
    return { value: value as DocumentValue, ...(language !== undefined && language !== UNDETERMINED ? { language } : {}), applied }
  }
}
