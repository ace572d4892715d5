/** Formality of a translation: the one definition both the wire schema and core use. */
export const FORMALITIES = ['default', 'more', 'less', 'prefer_more', 'prefer_less'] as const
export type Formality = typeof FORMALITIES[number]
