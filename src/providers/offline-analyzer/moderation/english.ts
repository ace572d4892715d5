/**
 * English profanity by obscenity: its English data set with the recommended transformers catches
 * leetspeak, confusable letters and repeated letters (sh1t, fück, shiiiit). Each of its words gets a
 * class here and a rating from cuss.
 */
import { DataSet, RegExpMatcher, englishDataset, englishRecommendedTransformers } from 'obscenity'
import type { WordClass } from './effects.js'
import { own } from '../../../lib/own.js'

export interface Listed {
  cls: WordClass
  /** 0..2, as cuss rates words. */
  rating: number
}

/** What each word of obscenity's English data set is (its phrase metadata's originalWord). */
const OBSCENITY_CLASSES: Readonly<Record<string, WordClass>> = {
  abo: 'slur',
  abeed: 'slur',
  africoon: 'slur',
  anal: 'sexual',
  anus: 'sexualMild',
  arabush: 'slur',
  arse: 'mild',
  ass: 'general',
  bastard: 'insult',
  bestiality: 'sexual',
  bitch: 'insult',
  blowjob: 'sexual',
  bollocks: 'general',
  boob: 'sexual',
  boonga: 'slur',
  buttplug: 'sexual',
  chingchong: 'slur',
  chink: 'slur',
  cock: 'sexual',
  cuck: 'insult',
  cum: 'sexual',
  cunt: 'insult',
  deepthroat: 'sexual',
  dick: 'sexual',
  dildo: 'sexual',
  doggystyle: 'sexual',
  'double penetration': 'sexual',
  dyke: 'slur',
  ejaculate: 'sexual',
  fag: 'slur',
  felch: 'sexual',
  fellatio: 'sexual',
  'finger bang': 'sexual',
  fisting: 'sexual',
  fuck: 'general',
  gangbang: 'sexual',
  handjob: 'sexual',
  hentai: 'sexual',
  hooker: 'sexInsult',
  incest: 'sexual',
  'jerk off': 'sexual',
  jizz: 'sexual',
  kike: 'slur',
  lubejob: 'sexual',
  masturbate: 'sexual',
  negro: 'slur',
  nigger: 'slur',
  orgasm: 'sexualMild',
  orgy: 'sexual',
  penis: 'sexualMild',
  piss: 'general',
  porn: 'sexualMild',
  prick: 'insult',
  pussy: 'sexual',
  rape: 'rape',
  retard: 'slur',
  scat: 'sexual',
  semen: 'sexualMild',
  sex: 'sexualMild',
  shit: 'general',
  slut: 'sexInsult',
  spastic: 'slur',
  tit: 'sexual',
  tranny: 'slur',
  turd: 'general',
  twat: 'insult',
  vagina: 'sexualMild',
  wank: 'sexual',
  whore: 'sexInsult'
}

export interface Obscenity {
  /** Matches in `text` as UTF-16 [start, end) with what was matched. */
  matches: (text: string) => Array<{ start: number, end: number, listed: Listed }>
  /** obscenity's words and what they are, for the masked forms (f**k) of our own look-ups. */
  words: Map<string, Listed>
}

/** Builds the matcher once; `rating` gives cuss's rating of a word. */
export function createObscenity (rating: (word: string) => number | undefined): Obscenity {
  const dataset = new DataSet<{ originalWord: string }>().addAll(englishDataset)
  const built = dataset.build()
  const matcher = new RegExpMatcher({ ...built, ...englishRecommendedTransformers })
  const byTerm = new Map<number, Listed>()
  const words = new Map<string, Listed>()
  for (const term of built.blacklistedTerms) {
    const word = dataset.getPayloadWithPhraseMetadata({ termId: term.id, startIndex: 0, endIndex: 0, matchLength: 0 }).phraseMetadata?.originalWord
    if (word === undefined) continue
    // obscenity's list is curated, so even a word cuss calls ambiguous counts as probable.
    const listed: Listed = { cls: own(OBSCENITY_CLASSES, word) ?? 'general', rating: Math.max(1, rating(word) ?? 2) }
    byTerm.set(term.id, listed)
    words.set(word, listed)
  }
  return {
    words,
    matches: text => {
      const out: Array<{ start: number, end: number, listed: Listed }> = []
      for (const m of matcher.getAllMatches(text)) {
        const listed = byTerm.get(m.termId)
        if (listed) out.push({ start: m.startIndex, end: m.endIndex + 1, listed })
      }
      return out
    }
  }
}
