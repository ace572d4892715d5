/**
 * The offline language detector: eld, fastText lid.176 and CLD2 vote, a model learned on the
 * dev split of bench/detect-accuracy weighs their answers (see ensemble.ts).
 */
import { readFile } from 'node:fs/promises'
import { ServiceUnavailableError } from '../../errors.js'
import type { Candidate, Detector } from '../../core/ports.js'
import { createEnsemble, type DetectFn, type WordListWeights } from './ensemble.js'
import { decodeLexicon, type LexiconTable } from './lexicon.js'
import type { ModelData } from './model.js'
import { decodeWordLists, type WordLists } from './wordlists.js'
import { loadVoters, type VoterName } from './voters/index.js'

export interface DetectorOptions {
  /** Voters to load (default: all three). The model knows how far to trust each. */
  voters?: VoterName[]
  /** A model other than the shipped one (bench/detect-accuracy/train.ts writes it). */
  model?: ModelData
  /** Use the shipped regression (regression.bin; default: unless `model` is given). */
  regression?: boolean
  /** A regression other than the shipped one (bench/detect-accuracy/train-regression.ts --out FILE). */
  regressionFile?: string | undefined
  /** Use the spelling dictionaries' word lists (wordlists.bin; default: unless `model` is given). */
  wordLists?: boolean
  /** Word lists other than the shipped ones (bench/detect-accuracy/build-wordlists.ts --out FILE). */
  wordListsFile?: string | undefined
  /** Their weights (bench/detect-accuracy/tune-wordlists.ts changes them between runs). */
  wordListWeights?: WordListWeights
}

/** The shipped model, read in the background (2.5 MB: not worth blocking module loading for). */
async function shippedModel (): Promise<ModelData> {
  return JSON.parse(await readFile(new URL('./model.json', import.meta.url), 'utf8')) as ModelData
}

/** The shipped lexicon (lexicon.bin, 2.7 MB), read as bytes: see lexicon.ts. */
async function shippedLexicon (): Promise<LexiconTable> {
  return decodeLexicon(await readFile(new URL('./lexicon.bin', import.meta.url)))
}

/** The shipped regression over every language (regression.bin, 2.9 MB, in the lexicon's form: see ensemble.ts). */
async function shippedRegression (file?: string): Promise<LexiconTable> {
  return decodeLexicon(await readFile(file ?? new URL('./regression.bin', import.meta.url)))
}

/** Which languages' Hunspell dictionaries, and everyday text, hold a word (wordlists.bin, 4 MB of Bloom filters: see wordlists.ts). */
async function shippedWordLists (file?: string): Promise<WordLists> {
  return decodeWordLists(await readFile(file ?? new URL('./wordlists.bin', import.meta.url)))
}

/** Creates the detector and starts loading its models in the background; `ready()` resolves once they are loaded. */
export function createDetector (options: DetectorOptions = {}): Detector {
  let detectFn: DetectFn | undefined
  let languages: string[] = []
  // a model given in full (a bench's) brings its own lexicon, or none
  const lexicon = options.model === undefined ? shippedLexicon() : undefined
  const regression = options.regression ?? options.model === undefined ? shippedRegression(options.regressionFile) : undefined
  const lists = options.wordLists ?? options.model === undefined ? shippedWordLists(options.wordListsFile) : undefined
  const loading = Promise.all([loadVoters(options.voters), options.model ?? shippedModel(), lexicon, regression, lists]).then(([voters, model, table, words, spelling]) => {
    const ensemble = createEnsemble(voters, model, table, words, spelling, options.wordListWeights)
    detectFn = ensemble.detect
    languages = ensemble.languages
  })
  // an unobserved failure must not crash the process; ready() reports it
  loading.catch(() => {})
  return {
    name: 'ensemble',
    async detect (text: string, only?: string[]): Promise<Candidate[]> {
      if (detectFn === undefined) throw new ServiceUnavailableError('The language detector is still loading its models.', 1)
      return detectFn(text, only)
    },
    languages: () => [...languages],
    ready: () => loading
  }
}
