/**
 * What each kind of evidence says about the moderation categories, and how evidence adds up:
 * every piece is a probability, pieces combine as independent (noisy-OR), so confidence grows with
 * evidence and saturates below 1; no evidence leaves 0.
 */
import { MODERATION_CATEGORIES, type ModerationCategory } from '../../../core/analysis/results.js'

/** What a listed word is. */
export type WordClass =
  /** A swear word (fuck, merde, Scheiße). */
  | 'general'
  /** A mild swear word (hell, damn, crap): low Profanity only. */
  | 'mild'
  /** Vulgar sexual words (cock, blowjob, chatte). */
  | 'sexual'
  /** Plain or clinical sexual words (sex, penis, orgasm). */
  | 'sexualMild'
  /** Vulgar insults (asshole, connard, Arschloch). */
  | 'insult'
  /** Insults that are not swear words (idiot, stupid, moron). */
  | 'insultMild'
  /** Sexual insults (slut, whore, salope). */
  | 'sexInsult'
  /** Slurs against a group (racial, homophobic, ableist). */
  | 'slur'
  /** Rape and its words. */
  | 'rape'
  /** A word a profanity list gives without saying what it is. */
  | 'listed'

/** What a phrase rule found. */
export type RuleKind =
  /** "I am going to kill you". */
  | 'threat'
  /** A threat against a place or the public: "I will shoot up the school", "the bomb goes off at noon". */
  | 'attack'
  /** "You'll pay for this", "I know where you live". */
  | 'menace'
  /** "You are worthless", "you're an idiot". */
  | 'insult'
  /** "Shut up", "get lost". */
  | 'dismiss'
  /** "Go die", "kill yourself". */
  | 'deathWish'
  /** "I want to kill myself". */
  | 'selfHarm'
  /** "Immigrants are vermin". */
  | 'hate'
  /** "Jews should be killed". */
  | 'hateViolent'

export type Effects = Partial<Record<ModerationCategory, number>>

/** cuss ratings: 2 = surely profane, 1 = probably, 0 = maybe. */
const SURE = [0.45, 0.7, 0.9] as const

/** The evidence one occurrence of a word of `cls` gives, given its rating 0..2. */
export function wordEffects (cls: WordClass, rating: number): Effects {
  const r = Math.max(0, Math.min(2, Math.round(rating)))
  const sure = SURE[r as 0 | 1 | 2]
  switch (cls) {
    case 'general': return { Profanity: sure, Toxic: 0.5 * sure }
    case 'mild': return { Profanity: [0.1, 0.15, 0.19][r]!, Toxic: 0.03 }
    case 'sexual': return { Profanity: 0.8 * sure, Sexual: 0.5 + 0.2 * r, Toxic: 0.3 * sure }
    case 'sexualMild': return { Sexual: 0.35 + 0.1 * r, Profanity: 0.05 }
    case 'insult': return { Profanity: 0.85 * sure, Insult: 0.5 + 0.1 * r, Toxic: 0.6 * sure }
    case 'insultMild': return { Insult: 0.25 + 0.1 * r, Toxic: 0.12 + 0.06 * r, Profanity: 0.05 }
    case 'sexInsult': return { Profanity: 0.8 * sure, Sexual: 0.5, Insult: 0.55, Toxic: 0.5 * sure }
    case 'slur': return { Derogatory: 0.6 + 0.15 * r, Toxic: 0.45 + 0.2 * r, Insult: 0.4, Profanity: 0.4 * sure }
    case 'rape': return { Violent: 0.6, Sexual: 0.6, Toxic: 0.4, Profanity: 0.15 }
    case 'listed': return { Profanity: 0.85 * sure, Toxic: 0.4 * sure }
  }
}

export const RULE_EFFECTS: Readonly<Record<RuleKind, Effects>> = {
  threat: { Violent: 0.9, Toxic: 0.75 },
  attack: { Violent: 0.9, Toxic: 0.75, 'Public Safety': 0.8 },
  menace: { Violent: 0.6, Toxic: 0.55 },
  insult: { Insult: 0.85, Toxic: 0.7 },
  dismiss: { Insult: 0.5, Toxic: 0.55 },
  deathWish: { Toxic: 0.85, Violent: 0.65, Insult: 0.6, 'Death Harm & Tragedy': 0.5 },
  selfHarm: { 'Death Harm & Tragedy': 0.85, Health: 0.5, Violent: 0.3 },
  hate: { Derogatory: 0.85, Toxic: 0.8, Insult: 0.4 },
  hateViolent: { Derogatory: 0.85, Toxic: 0.85, Violent: 0.8 }
}

const INDEX = new Map<string, number>(MODERATION_CATEGORIES.map((c, i) => [c, i]))

/** Confidences per category, in MODERATION_CATEGORIES order, that evidence raises. */
export class Evidence {
  private readonly scores = new Float64Array(MODERATION_CATEGORIES.length)

  /** Adds one independent piece of evidence per category. */
  add (effects: Effects): void {
    for (const name in effects) {
      const p = effects[name as ModerationCategory] ?? 0
      const i = INDEX.get(name)
      if (i === undefined || p <= 0) continue
      const s = this.scores[i] as number
      this.scores[i] = s + p - s * p
    }
  }

  /** The confidences, rounded to 4 decimals. */
  confidences (): Array<{ name: string, confidence: number }> {
    return MODERATION_CATEGORIES.map((name, i) => ({ name, confidence: Math.round(Math.min(1, this.scores[i] as number) * 10000) / 10000 }))
  }
}
