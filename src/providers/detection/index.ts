/**
 * The offline language detector: eld, fastText lid.176 and CLD2 vote, a model learned on the
 * dev split of bench/detect-accuracy weighs their answers (see ensemble.ts).
 */
import { ServiceUnavailableError } from '../../errors.js'
import type { Candidate, Detector } from '../types.js'
import { createEnsemble, type DetectFn } from './ensemble.js'
import type { ModelData } from './model.js'
import model from './model.json' with { type: 'json' }
import { loadVoters, type VoterName } from './voters/index.js'

export interface DetectorOptions {
  /** Voters to load (default: all three). The model knows how far to trust each. */
  voters?: VoterName[]
  /** A model other than the shipped one (bench/detect-accuracy/train.ts writes it). */
  model?: ModelData
}

/** Creates the detector and starts loading its models in the background; `ready()` resolves once they are loaded. */
export function createDetector (options: DetectorOptions = {}): Detector {
  let detectFn: DetectFn | undefined
  let languages: string[] = []
  const loading = loadVoters(options.voters).then(voters => {
    const ensemble = createEnsemble(voters, options.model ?? model as unknown as ModelData)
    detectFn = ensemble.detect
    languages = ensemble.languages
  })
  // an unobserved failure must not crash the process; ready() reports it
  loading.catch(() => {})
  return {
    name: 'ensemble',
    detect (text: string, only?: string[]): Candidate[] {
      if (detectFn === undefined) throw new ServiceUnavailableError('The language detector is still loading its models.', 1)
      return detectFn(text, only)
    },
    languages: () => [...languages],
    ready: () => loading
  }
}
