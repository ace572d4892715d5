/** Splits a TranslateCall's texts into DeepL requests: at most 50 texts and under DeepL's 128 KiB request size each. */
import { batches } from '../../upstream/batches.js'

/** DeepL takes at most 50 `text` fields per /v2/translate request. */
export const MAX_TEXTS = 50
/** DeepL refuses request bodies over 128 KiB. */
export const MAX_REQUEST_BYTES = 128 * 1024
// room for target_lang, tag_handling and the other short fields deepl-node adds
const FIELDS_BYTES = 1024

/** Bytes a field adds to the form body deepl-node sends (URL-encoded, so ASCII: length is bytes). */
export function formBytes (name: string, value: string): number {
  return new URLSearchParams([[name, value]]).toString().length + 1
}

/**
 * Groups the texts' indices into calls, in order. `sharedBytes` is what every call carries besides
 * the texts (the context). A text too big for any call goes alone, and DeepL's 413 says so.
 */
export function splitBatches (texts: readonly string[], sharedBytes: number, maxTexts = MAX_TEXTS, maxBytes = MAX_REQUEST_BYTES): number[][] {
  return batches(texts.map((_, i) => i), maxTexts, maxBytes - FIELDS_BYTES - sharedBytes, i => formBytes('text', texts[i]!))
}
