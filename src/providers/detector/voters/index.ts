/** The voters the detector can use, by name. */
import type { Voter } from '../voter.js'
import { loadCld2 } from './cld2.js'
import { loadEld } from './eld.js'
import { loadFastText } from './fasttext.js'

export const VOTER_NAMES = ['eld', 'fasttext', 'cld2'] as const
export type VoterName = typeof VOTER_NAMES[number]

const LOADERS: Record<VoterName, () => Promise<Voter>> = { eld: loadEld, fasttext: loadFastText, cld2: loadCld2 }

/** Loads the named voters in parallel, in the order given. */
export async function loadVoters (names: readonly VoterName[] = VOTER_NAMES): Promise<Voter[]> {
  return Promise.all(names.map(name => LOADERS[name]()))
}
