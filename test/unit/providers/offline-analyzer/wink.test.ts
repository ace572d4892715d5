/** One wink-nlp instance serves sentiment and entities, and answers as the two instances of their own did. */
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { describe, expect, it } from 'vitest'
import { englishWink } from '../../../../src/providers/offline-analyzer/wink.js'
import { loadEnglishModels } from '../../../../src/providers/offline-analyzer/entities/english.js'

const TEXTS = [
  'On March 3rd, 2025 I paid $45.99 and 20% more for 3 tickets, not bad at all!',
  'It was not good. Call me at 5 pm on Friday 12 June; it costs €300.',
  'The staff were friendly and the room was clean, but the breakfast was cold and the coffee tasted really awful.'
]

describe('the shared wink-nlp instance', () => {
  it('is the one the entities use', async () => {
    expect((await loadEnglishModels()).wink).toBe(await englishWink())
  })

  it('scores sentiment and finds entities as an instance with only that step does', async () => {
    const shared = await englishWink()
    const sentiment = winkNLP(model, ['negation', 'sentiment'])
    const ner = winkNLP(model, ['ner'])
    for (const text of TEXTS) {
      expect(shared.readDoc(text).out(shared.its.sentiment)).toBe(sentiment.readDoc(text).out(sentiment.its.sentiment))
      expect(shared.readDoc(text).entities().out(shared.its.detail)).toEqual(ner.readDoc(text).entities().out(ner.its.detail))
      expect(shared.readDoc(text).entities().out(shared.its.span)).toEqual(ner.readDoc(text).entities().out(ner.its.span))
    }
  })
})
