/** Small helpers that turn the wire's request shapes (snake_case, optional fields) into core's domain inputs. */
import type { DocumentT } from '../schemas/common.js'

/** The object without its undefined fields (core's options are exactOptionalPropertyTypes-strict). */
export function defined<T extends Record<string, unknown>> (object: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value
  return out as { [K in keyof T]: Exclude<T[K], undefined> }
}

/** A document's mime type and language in core's terms. */
export function wireDocument (document: Pick<DocumentT, 'mime_type' | 'language'>): { mimeType?: string, language?: string } {
  return defined({ mimeType: document.mime_type, language: document.language })
}
