/**
 * wink-nlp with its English model, one instance for sentiment and entities: each instance unpacks
 * the model (~11 MB of heap). Its steps leave each other's results as they are (checked on the
 * 1,475 texts of the sentiment dev set): sentence boundaries and parts of speech are not needed.
 */
import type { WinkMethods } from 'wink-nlp'

let loading: Promise<WinkMethods> | undefined

/** The instance, made on the first call; later calls get the same one. */
export function englishWink (): Promise<WinkMethods> {
  loading ??= Promise.all([import('wink-nlp'), import('wink-eng-lite-web-model')])
    .then(([wink, model]) => wink.default(model.default, ['negation', 'sentiment', 'ner']))
  loading.catch(() => { loading = undefined })
  return loading
}
