/** Per category path, per language: the comma-separated keyword list (see lexicon-1.ts for its format). */
export type CategoryLexicon = Readonly<Record<string, Readonly<Record<'en' | 'fr' | 'de' | 'es' | 'it' | 'pt' | 'nl', string>>>>
