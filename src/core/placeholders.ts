/**
 * Placeholders: the parts of a message that software fills in or renders, which an engine
 * must never translate. Found in a segment's text and protected as `<x id="N"/>` tokens
 * (ids above those the segment already has), restored exactly after translation.
 *
 * - braces: `{name}`, `{0}`, `{{name}}`, `${name}`, `%{name}`, and ICU arguments as a whole,
 *   nested bodies included: `{count, plural, one {# item} other {# items}}` is one token, so
 *   the texts inside an ICU plural or select are not translated (the engine could not keep
 *   their syntax, and they need the target language's own plural categories anyway); in the
 *   catalog formats (plain text, JSON, XLIFF, PO, Android) core/documents/icu.ts has already cut
 *   such a message into its sub-messages, each translated on its own;
 * - printf: `%s %d %1$s %.2f %-5d %@ %%` and Python's `%(name)s`;
 * - names: a WebExtension message's `$USER$` (chrome.i18n), and Laravel's `:name`, lower case
 *   after white space or at the start (not `Note:this`, `10:30`, `:)` or a one-letter `:p`);
 * - references to other messages, which name a key the catalog must still resolve: i18next's
 *   nesting `$t(key, { "count": {{n}} }, formatter)` whole (to its balanced `)`), and vue-i18n's
 *   linked messages `@:key`, `@.modifier:key`, `@:(key)` and `@:{'key'}`;
 * - tag tokens: `<0>…</0>`, `<bold>…</bold>` (react-i18next Trans): the tags are kept and the
 *   text between them is translated, so a matched pair becomes `<g id="N">…</g>`; `<1/>` and
 *   a tag without its partner become tokens.
 */
import { protect, type Mark, type PairMark, type Protected } from './documents/protect.js'

const PRINTF = /%(?:%|(?:\d+\$)?[-+0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[sdiufFxXoeEgGcpaA@]|\([A-Za-z_][\w.-]*\)[-+0#]*\d*(?:\.\d+)?[sdiufFxXoeEgGcr])/y
const MESSAGE_NAME = /\$\w+\$/y
/** vue-i18n's linked message: `@`, a modifier, `:` and a dotted key (never its sentence's final `.`), or a key in `(…)` or `{…}`. */
const LINKED = /@(?:\.[A-Za-z]\w*)?:(?:\([\p{L}\p{N}_$:|./-]+\)|\{[^{}\n]+\}|[\p{L}\p{N}_$-]+(?:\.[\p{L}\p{N}_$-]+)*)/uy
const LARAVEL_NAME = /:[a-z][a-z0-9_]+(?![\p{L}\p{N}_])/uy
const TAG = /<(\/?)([A-Za-z][\w.:-]*|\d+)((?:\s+[\w:.-]+(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'<>=]+))?)*)\s*(\/?)>/y

interface TagToken extends Mark {
  name: string
  role: 'open' | 'close' | 'self'
}

/** The index of the `close` closing each `open` (`}` of `{`, `)` of `(`), for the ones that are balanced. */
function closingOf (text: string, open: string, close: string): Map<number, number> {
  const closing = new Map<number, number>()
  const opened: number[] = []
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === open) opened.push(i)
    else if (c === close && opened.length > 0) closing.set(opened.pop()!, i)
  }
  return closing
}

/** Pairs `<N>` with its `</N>` by nesting; everything unpaired is a token. */
function pairTags (tags: TagToken[]): { tokens: Mark[], pairs: PairMark[] } {
  const tokens: Mark[] = []
  const pairs: PairMark[] = []
  const stack: TagToken[] = []
  // how many of each name the stack holds, so a close finds its open without a scan
  const open = new Map<string, number>()
  const pop = (): TagToken => {
    const top = stack.pop()!
    open.set(top.name, open.get(top.name)! - 1)
    return top
  }
  for (const tag of tags) {
    if (tag.role === 'open') {
      stack.push(tag)
      open.set(tag.name, (open.get(tag.name) ?? 0) + 1)
    } else if (tag.role === 'close' && (open.get(tag.name) ?? 0) > 0) {
      for (let top = pop(); ; top = pop()) {
        if (top.name === tag.name) {
          pairs.push({ open: top, close: tag })
          break
        }
        tokens.push(top)
      }
    } else {
      tokens.push(tag)
    }
  }
  tokens.push(...stack)
  return { tokens: tokens.map(({ start, end, text }) => ({ start, end, text })), pairs }
}

/** Every placeholder of a text: tokens, and tag pairs whose inner text stays translatable. */
export function findPlaceholders (text: string): { tokens: Mark[], pairs: PairMark[] } {
  const closing = closingOf(text, '{', '}')
  const parens = text.includes('$t(') ? closingOf(text, '(', ')') : undefined
  const tokens: Mark[] = []
  const tags: TagToken[] = []
  let i = 0
  while (i < text.length) {
    const c = text[i]
    const brace = c === '{' ? i : (c === '$' || c === '%') && text[i + 1] === '{' ? i + 1 : -1
    const close = brace === -1 ? undefined : closing.get(brace)
    if (close !== undefined && text.slice(brace + 1, close).trim() !== '') {
      tokens.push({ start: i, end: close + 1, text: text.slice(i, close + 1) })
      i = close + 1
      continue
    }
    const nested = c === '$' && text.startsWith('t(', i + 1) ? parens!.get(i + 2) : undefined
    if (nested !== undefined && text.slice(i + 3, nested).trim() !== '') {
      tokens.push({ start: i, end: nested + 1, text: text.slice(i, nested + 1) })
      i = nested + 1
      continue
    }
    const pattern = c === '%' ? PRINTF : c === '<' ? TAG : c === '@' ? LINKED : c === '$' ? MESSAGE_NAME : c === ':' && (i === 0 || /\s/.test(text[i - 1]!)) ? LARAVEL_NAME : undefined
    if (pattern) {
      pattern.lastIndex = i
      const m = pattern.exec(text)
      if (m) {
        const mark = { start: i, end: i + m[0].length, text: m[0] }
        if (pattern !== TAG) tokens.push(mark)
        else tags.push({ ...mark, name: m[2]!.toLowerCase(), role: m[1] ? 'close' : m[4] ? 'self' : 'open' })
        i = mark.end
        continue
      }
    }
    i++
  }
  const paired = pairTags(tags)
  tokens.push(...paired.tokens)
  return { tokens, pairs: paired.pairs }
}

/** The spans a sentence break must not cut: each placeholder, and each tag pair with its inner text. */
export function placeholderSpans (text: string): Array<[number, number]> {
  const { tokens, pairs } = findPlaceholders(text)
  return [
    ...tokens.map((t): [number, number] => [t.start, t.end]),
    ...pairs.map((p): [number, number] => [p.open.start, p.close.end])
  ]
}

/** A tagged segment with its placeholders protected, and the restore for the engine's answer. */
export function protectPlaceholders (segment: string): Protected {
  const { segment: protectedSegment, restore } = protect(segment, flat => findPlaceholders(flat.text))
  return { segment: protectedSegment, restore }
}
