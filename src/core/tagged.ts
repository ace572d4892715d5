/**
 * Tagged text: the one segment format every translator receives and returns.
 *
 * - text is XML-escaped (`&amp;`, `&lt;`, `&gt;`);
 * - `<g id="N">…</g>` wraps inline markup that must follow its words (`<b>`, `<a>`, `<0>…</0>`);
 * - `<x id="N"/>` stands for a protected token (placeholder, glossary phrase, `<br>`, inline code).
 *
 * It is valid XML/HTML, so engines with a markup mode (Google `format=html`, DeepL
 * `tag_handling=xml`, LibreTranslate `format=html`, LLMs told to keep tags) take it as is;
 * Apertium's adapter turns it into word-bound blanks.
 */
import { own } from '../lib/own.js'

export type TaggedPart =
  | { type: 'text', text: string }
  | { type: 'open', id: number }
  | { type: 'close', id: number }
  | { type: 'token', id: number }

const ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** Escapes plain text for tagged form. */
export function escapeText (text: string): string {
  return text.replace(/[&<>]/g, c => c === '&' ? '&amp;' : c === '<' ? '&lt;' : '&gt;')
}

/** Decodes the entities an engine may answer with (named basics and numeric ones). */
export function unescapeText (text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10)
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return own(ENTITY, name.toLowerCase()) ?? whole
  })
}

// Engines sometimes change quoting, spacing or case inside tags; accept those variants.
const TAG = /<\s*(\/?)\s*([gx])(?:\s+id\s*=\s*["']?(\d+)["']?)?\s*(\/?)\s*>/gi

/** Parses tagged text into parts; a close tag is matched to its open tag by nesting. */
export function parseTagged (tagged: string): TaggedPart[] {
  const parts: TaggedPart[] = []
  const open: number[] = []
  let last = 0
  const pushText = (raw: string): void => {
    if (raw) parts.push({ type: 'text', text: unescapeText(raw) })
  }
  for (const m of tagged.matchAll(TAG)) {
    const [whole, slash, kind, idText, selfClose] = m
    const id = idText === undefined ? undefined : Number(idText)
    const isG = kind!.toLowerCase() === 'g'
    // every tag of our syntax is consumed; stray closes and id-less tags an engine made up are dropped
    pushText(tagged.slice(last, m.index))
    last = m.index + whole.length
    if (slash) {
      if (isG && open.length > 0) parts.push({ type: 'close', id: open.pop()! })
    } else if (id === undefined) {
      continue
    } else if (!isG || selfClose) {
      parts.push({ type: 'token', id })
    } else {
      parts.push({ type: 'open', id })
      open.push(id)
    }
  }
  pushText(tagged.slice(last))
  return parts
}

/** Serializes parts back to tagged text. */
export function serializeTagged (parts: readonly TaggedPart[]): string {
  let out = ''
  for (const p of parts) {
    if (p.type === 'text') out += escapeText(p.text)
    else if (p.type === 'open') out += `<g id="${p.id}">`
    else if (p.type === 'close') out += '</g>'
    else out += `<x id="${p.id}"/>`
  }
  return out
}

/** The plain text of a tagged segment: tags dropped, entities decoded. */
export function plainText (tagged: string): string {
  return partsText(parseTagged(tagged))
}

/** The text of parsed tagged parts, tags left out. */
export function partsText (parts: readonly TaggedPart[]): string {
  let out = ''
  for (const p of parts) if (p.type === 'text') out += p.text
  return out
}
