/** The configurable bounds that schemas carry (and the OpenAPI document shows). */
export interface Limits {
  targets: number
  bulkDocuments: number
  edits: number
  substitutions: number
}

export const DEFAULT_LIMITS: Limits = { targets: 20, bulkDocuments: 100, edits: 10, substitutions: 1000 }
