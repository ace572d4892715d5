/** The configurable bounds of a request: what schemas carry (and the OpenAPI document shows), and their defaults. */
export interface Limits {
  targets: number
  bulkDocuments: number
  edits: number
  substitutions: number
}

export const DEFAULT_LIMITS: Limits = { targets: 20, bulkDocuments: 100, edits: 10, substitutions: 1000 }

/** Characters of text in one request (MAX_TEXT_CHARS). */
export const DEFAULT_TEXT_CHARS = 100_000
