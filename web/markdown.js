/**
 * A small Markdown preview built as DOM nodes (never HTML strings): headings, paragraphs, lists,
 * quotes, fenced code, rules, code spans, emphasis and links. Raw HTML in the Markdown is shown
 * as text. Every scan is linear or bounded: the text can be long and is not ours.
 */

const MAX_DEPTH = 4
const SAFE_URL = /^(?:https?:|mailto:|\/|#|\.{0,2}\/)/i

/** The element `tag` with `children` (strings become text nodes). */
function el (tag, ...children) {
  const node = document.createElement(tag)
  for (const child of children) node.append(child)
  return node
}

/** Whether `line` is a thematic break (three or more of the same -, * or _ and spaces only). */
function isRule (line) {
  const s = line.replaceAll(' ', '').replaceAll('\t', '')
  if (s.length < 3) return false
  const c = s[0]
  if (c !== '-' && c !== '*' && c !== '_') return false
  for (const ch of s) if (ch !== c) return false
  return true
}

/** The level and text of an ATX heading line, or null. */
function heading (line) {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  let level = 0
  while (line[i + level] === '#') level++
  if (level < 1 || level > 6) return null
  const rest = line.slice(i + level)
  if (rest !== '' && rest[0] !== ' ' && rest[0] !== '\t') return null
  let end = rest.length
  while (end > 0 && (rest[end - 1] === ' ' || rest[end - 1] === '#')) end--
  return { level, text: rest.slice(0, end).trim() }
}

/** The fence (``` or ~~~, three or more) opening `line`, or null. */
function fence (line) {
  const t = line.trimStart()
  if (line.length - t.length > 3) return null
  const c = t[0]
  if (c !== '`' && c !== '~') return null
  let n = 0
  while (t[n] === c) n++
  return n >= 3 ? t.slice(0, n) : null
}

/** The marker of a list item line ("-", "*", "+", "1." or "1)") and its text, or null. */
function listItem (line) {
  const t = line.trimStart()
  if (line.length - t.length > 3) return null
  if ((t[0] === '-' || t[0] === '*' || t[0] === '+') && (t[1] === ' ' || t[1] === '\t')) {
    return { ordered: false, text: t.slice(2) }
  }
  let n = 0
  while (n < 9 && t[n] >= '0' && t[n] <= '9') n++
  if (n > 0 && (t[n] === '.' || t[n] === ')') && (t[n + 1] === ' ' || t[n + 1] === '\t')) {
    return { ordered: true, start: Number(t.slice(0, n)), text: t.slice(n + 2) }
  }
  return null
}

const isBlank = (line) => line.trim() === ''
const isQuote = (line) => /^ {0,3}>/.test(line)

/** Whether `line` starts a block other than a paragraph. */
function startsBlock (line) {
  return fence(line) !== null || heading(line) !== null || isRule(line) || isQuote(line) || listItem(line) !== null
}

/** Appends the inline Markdown of `text` to `parent`. */
function inline (parent, text, depth) {
  if (depth > MAX_DEPTH) {
    parent.append(text)
    return
  }
  // positions from which a closing delimiter is known to be absent: each failed search is done once
  const absentFrom = new Map()
  const find = (needle, from) => {
    const known = absentFrom.get(needle)
    if (known !== undefined && from >= known) return -1
    const at = text.indexOf(needle, from)
    if (at < 0) absentFrom.set(needle, Math.min(from, known ?? from))
    return at
  }
  let plain = ''
  const flush = () => {
    if (plain !== '') parent.append(plain)
    plain = ''
  }
  let i = 0
  while (i < text.length) {
    const c = text[i]
    if (c === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1])) {
      plain += text[i + 1]
      i += 2
      continue
    }
    if (c === '`') {
      let n = 0
      while (text[i + n] === '`') n++
      const ticks = '`'.repeat(n)
      const close = find(ticks, i + n)
      if (close > 0) {
        flush()
        parent.append(el('code', text.slice(i + n, close)))
        i = close + n
        continue
      }
      plain += ticks
      i += n
      continue
    }
    if ((c === '*' || c === '_') && text[i + 1] === c) {
      const marker = c + c
      const close = find(marker, i + 2)
      if (close > i + 2) {
        flush()
        const strong = el('strong')
        inline(strong, text.slice(i + 2, close), depth + 1)
        parent.append(strong)
        i = close + 2
        continue
      }
    } else if ((c === '*' || c === '_') && text[i + 1] !== ' ' && (c === '*' || i === 0 || !/[\p{L}\p{N}]/u.test(text[i - 1]))) {
      const close = find(c, i + 1)
      if (close > i + 1 && text[close - 1] !== ' ') {
        flush()
        const em = el('em')
        inline(em, text.slice(i + 1, close), depth + 1)
        parent.append(em)
        i = close + 1
        continue
      }
    }
    const image = c === '!' && text[i + 1] === '['
    if (c === '[' || image) {
      const open = image ? i + 1 : i
      const closeText = find(']', open + 1)
      if (closeText > 0 && text[closeText + 1] === '(') {
        const closeUrl = find(')', closeText + 2)
        if (closeUrl > 0) {
          const label = text.slice(open + 1, closeText)
          const url = text.slice(closeText + 2, closeUrl).trim().split(/\s/, 1)[0] ?? ''
          flush()
          if (SAFE_URL.test(url) || (!url.includes(':') && url !== '')) {
            const a = el('a')
            a.href = url
            a.rel = 'noopener noreferrer nofollow'
            a.target = '_blank'
            if (image) a.append(`[image: ${label}]`)
            else inline(a, label, depth + 1)
            parent.append(a)
          } else {
            plain += image ? `[image: ${label}]` : label
          }
          i = closeUrl + 1
          continue
        }
      }
    }
    plain += c
    i++
  }
  flush()
}

/** Appends the lines of a paragraph, keeping hard breaks (two trailing spaces or a backslash). */
function paragraph (lines, depth) {
  const p = el('p')
  lines.forEach((line, k) => {
    const hard = line.endsWith('  ') || line.endsWith('\\')
    const content = line.endsWith('\\') ? line.slice(0, -1) : line
    inline(p, k === lines.length - 1 ? content.trim() : content.trimStart().trimEnd(), depth)
    if (k < lines.length - 1) p.append(hard ? el('br') : ' ')
  })
  return p
}

/** Appends the blocks of `lines` to `parent`. */
function blocks (parent, lines, depth) {
  let i = 0
  while (i < lines.length) {
    const line = lines[i]
    if (isBlank(line)) {
      i++
      continue
    }
    const open = fence(line)
    if (open !== null) {
      const code = []
      i++
      while (i < lines.length && !(lines[i].trimStart().startsWith(open) && lines[i].trim().replaceAll(open[0], '') === '')) code.push(lines[i++])
      i++
      parent.append(el('pre', el('code', code.join('\n'))))
      continue
    }
    const h = heading(line)
    if (h !== null) {
      const node = el(`h${Math.min(6, h.level + 2)}`)
      inline(node, h.text, depth)
      parent.append(node)
      i++
      continue
    }
    if (isRule(line)) {
      parent.append(el('hr'))
      i++
      continue
    }
    if (isQuote(line)) {
      const inner = []
      while (i < lines.length && isQuote(lines[i])) inner.push(lines[i++].replace(/^ {0,3}> ?/, ''))
      const quote = el('blockquote')
      if (depth < MAX_DEPTH) blocks(quote, inner, depth + 1)
      else quote.append(inner.join('\n'))
      parent.append(quote)
      continue
    }
    const item = listItem(line)
    if (item !== null) {
      const list = el(item.ordered ? 'ol' : 'ul')
      if (item.ordered && item.start !== 1) list.start = item.start
      while (i < lines.length) {
        const next = listItem(lines[i])
        if (next === null || next.ordered !== item.ordered) break
        const text = [next.text]
        i++
        // continuation lines: indented, not blank, not a new item
        while (i < lines.length && !isBlank(lines[i]) && /^\s/.test(lines[i]) && listItem(lines[i]) === null) text.push(lines[i++].trim())
        const li = el('li')
        inline(li, text.join(' '), depth)
        list.append(li)
      }
      parent.append(list)
      continue
    }
    const para = []
    while (i < lines.length && !isBlank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]))) para.push(lines[i++])
    parent.append(paragraph(para, depth))
  }
}

/** A fragment holding `markdown` rendered as DOM nodes. */
export function renderMarkdown (markdown) {
  const fragment = document.createDocumentFragment()
  blocks(fragment, String(markdown).replace(/\r\n?/g, '\n').split('\n'), 0)
  return fragment
}
