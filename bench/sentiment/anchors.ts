/** The single analysers the service is measured against, each used as its package documents it. */
import Sentiment from 'sentiment'
import vader from 'vader-sentiment'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

const nlp = winkNLP(model)
const afinn = new Sentiment()

/** wink-nlp's document sentiment (full default pipeline), in [-1, 1]. */
export function winkScore (text: string): number {
  return nlp.readDoc(text).out(nlp.its.sentiment) as unknown as number
}

/** VADER's compound score, in [-1, 1]. */
export function vaderScore (text: string): number {
  return vader.SentimentIntensityAnalyzer.polarity_scores(text).compound
}

/** AFINN-165 via the `sentiment` package: score per token. */
export function afinnScore (text: string): number {
  return afinn.analyze(text).comparative
}

/** The mean of wink-nlp's and VADER's scores. */
export function winkVaderMean (text: string): number {
  return (winkScore(text) + vaderScore(text)) / 2
}
