/**
 * What offline analysers answer. Offsets are in code points (not UTF-16 units) into the text the
 * analyser was given, so a client can slice with Array.from(text).
 */

export const ENTITY_TYPES = ['PERSON', 'LOCATION', 'ORGANIZATION', 'EVENT', 'WORK_OF_ART', 'CONSUMER_GOOD', 'PHONE_NUMBER', 'ADDRESS', 'DATE', 'NUMBER', 'PRICE', 'EMAIL', 'URL', 'OTHER'] as const
export type EntityType = typeof ENTITY_TYPES[number]

export const MODERATION_CATEGORIES = [
  'Toxic', 'Derogatory', 'Violent', 'Sexual', 'Insult', 'Profanity', 'Death Harm & Tragedy', 'Firearms & Weapons',
  'Public Safety', 'Health', 'Religion & Belief', 'Illicit Drugs', 'War & Conflict', 'Politics', 'Finance', 'Legal'
] as const
export type ModerationCategory = typeof MODERATION_CATEGORIES[number]

export type SentimentLabel = 'positive' | 'negative' | 'neutral' | 'mixed'

/** One mention of an entity: code-point offset and length into the analysed text. */
export interface Mention {
  offset: number
  length: number
  /** The text of this mention as written (an alias such as "Obama" for "Barack Obama"). */
  text: string
}

export interface FoundEntity {
  /** The fullest form of the name ("Barack Obama"). */
  name: string
  type: EntityType
  /** Every occurrence located in the text, aliases merged, in text order. */
  mentions: Mention[]
  /** How often the text refers to it when an analyser counts more than it can locate (a generative model); else mentions.length. */
  count?: number
  /** Normalised value where one is clear (E.164 phone number, ISO date, number value). */
  value?: string
}

export interface SentenceSentiment {
  offset: number
  length: number
  /** [-1, 1] */
  score: number
}

export interface SentimentScore {
  /** [-1, 1] for the whole text. */
  score: number
  /** >= 0: the sum of the sentences' absolute scores. */
  magnitude: number
  sentiment: SentimentLabel
  sentences: SentenceSentiment[]
}

/** A named confidence in [0, 1] (moderation category or content category path). */
export interface Scored {
  name: string
  confidence: number
}
