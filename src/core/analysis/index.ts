/** The analysis use case (entities, sentiment, moderation, categories); its analysers land with POST /language/analyze. */
import { NotImplementedError } from '../../errors.js'
import type { Analyzer } from '../../providers/types.js'

export interface Analysis {
  analyze: () => Promise<never>
  sentiment: () => Promise<never>
}

/** Answers 501 until the analysers are built: never a made-up analysis. */
export function createAnalysis (_analyzers: readonly Analyzer[]): Analysis {
  const pending = (what: string) => async (): Promise<never> => {
    throw new NotImplementedError(`${what} is not built into this version of the service yet.`)
  }
  return {
    analyze: pending('Text analysis'),
    sentiment: pending('Sentiment analysis')
  }
}
