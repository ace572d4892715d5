/** POST /language/substitute: glossary rules applied to a document in its own language. */
import type { FieldPath } from '../../errors.js'
import type { AppliedSubstitution, Substitution } from '../glossary.js'
import type { MimeType } from './mime.js'
import { prepareForTranslation } from './prepare.js'

export interface SubstituteOptions {
  caseSensitive: boolean
  /** Leave placeholders alone (default true): a rule never rewrites inside `{name}` or `%s`. */
  placeholders?: boolean
  language?: string
  path?: FieldPath
}

/**
 * The document with every rule applied (only its text: markup, code and placeholders are left
 * alone), in the input's shape, and what was applied. Pass rulesForLanguage(rules, L).
 */
export function substituteDocument (value: unknown, mimeType: MimeType, rules: readonly Substitution[], options: SubstituteOptions): { value: unknown, applied: AppliedSubstitution[] } {
  const prepared = prepareForTranslation(value, mimeType, {
    placeholders: options.placeholders ?? true,
    rules,
    caseSensitive: options.caseSensitive,
    language: options.language,
    path: options.path
  })
  // the identity "translation": every protected phrase comes back as its substitution
  return prepared.finish(prepared.segments)
}
