// vader-sentiment ships no types; the bench calls its analyser as the reference VADER.
declare module 'vader-sentiment' {
  export const SentimentIntensityAnalyzer: {
    polarity_scores: (text: string) => { neg: number, neu: number, pos: number, compound: number }
  }
}
