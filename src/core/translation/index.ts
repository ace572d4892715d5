/** The translation use case: documents into targets, and what the configured services can translate. */
import { canonicalTag, sameBase } from '../languages.js'
import { languageName } from '../locales.js'
import { checkTranslation, translateDocuments } from './translate.js'
import type { TranslatedDocument, TranslateInput, TranslationDeps } from './types.js'

export type * from './types.js'
export { IDENTITY_SERVICE } from './translate.js'

export interface LanguageEntry {
  name: string
  tag: string
  services: string[]
}

export interface Translation {
  /** Every document into every target, one result per document in order. */
  translate: (input: TranslateInput, signal: AbortSignal) => Promise<TranslatedDocument[]>
  /** What translate checks before its work (formats, tags, pairs, the text limit), without the work: throws what it would. */
  check: (input: TranslateInput, signal: AbortSignal) => Promise<void>
  /**
   * Source and target languages with the services that take each; given `source`, only the targets
   * it translates into, each with the services translating source -> it (every pair of a source in one answer).
   */
  languages: (source?: string) => Promise<{ source: LanguageEntry[], target: LanguageEntry[] }>
  /** Whether every source -> target pair can be translated, and the services that can do them all. */
  supported: (source: string, targets: readonly string[]) => Promise<{ supported: boolean, services: string[] }>
  /** Whether some service translating source -> target can honour `formality: more|less` for it. */
  formality: (source: string, target: string) => Promise<boolean>
}

export function createTranslation (deps: TranslationDeps): Translation {
  const { catalog } = deps
  /** The services translating from -> to in preference order, every one for a target of the source's language (the text is kept). */
  const pairServices = (from: string, to: string): string[] =>
    sameBase(from, to) ? catalog.translators.map(t => t.name) : catalog.choices(from, to).map(r => r.translator.name)
  return {
    translate: async (input, signal) => await translateDocuments(input, deps, signal),
    check: async (input, signal) => { await checkTranslation(input, deps, signal) },

    async languages (source) {
      const from = source === undefined ? undefined : canonicalTag(source, ['source'])
      await catalog.load()
      // named as GET /language/locale/{tag} names them
      const entry = ({ tag, services }: { tag: string, services: string[] }): LanguageEntry => ({ name: languageName(tag), tag, services })
      const targets = from === undefined
        ? catalog.languages('target')
        : catalog.languages('target').map(({ tag }) => ({ tag, services: pairServices(from, tag) })).filter(t => t.services.length > 0)
      return { source: catalog.languages('source').map(entry), target: targets.map(entry) }
    },

    async supported (source, targets) {
      const from = canonicalTag(source, ['source'])
      const tos = targets.map(t => canonicalTag(t, ['target']))
      await catalog.load()
      let services = catalog.translators.map(t => t.name)
      let supported = tos.length > 0
      for (const to of tos) {
        if (sameBase(from, to)) continue
        const names = catalog.choices(from, to).map(r => r.translator.name)
        if (names.length === 0) supported = false
        services = services.filter(s => names.includes(s))
      }
      return { supported, services: supported ? services : [] }
    },

    async formality (source, target) {
      const from = canonicalTag(source, ['source'])
      const to = canonicalTag(target, ['target'])
      await catalog.load()
      return catalog.choices(from, to).some(c => c.translator.supportsFormality?.({ from: c.from, to: c.to }) === true)
    }
  }
}
