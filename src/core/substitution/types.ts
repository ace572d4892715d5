/** A custom phrase (glossary entry): when text in `source` is translated into `target`, `text` becomes `substitution`. */
export interface Substitution {
  source?: string
  text: string
  target?: string
  substitution: string
}

/** What a request's substitutions did: each phrase replaced, and how often. */
export interface AppliedSubstitution {
  text: string
  substitution: string
  count: number
}
