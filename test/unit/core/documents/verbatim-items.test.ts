import { describe, expect, it } from 'vitest'
import { alignText } from '../../../../src/core/documents/align.js'
import type { Item } from '../../../../src/core/documents/run.js'
import { keepVerbatim } from '../../../../src/core/documents/verbatim-items.js'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { dropTags, reverseWords, upper } from './engines.js'

/**
 * The items of `source` where `<` and `>` around a name are an inline element's tags, `[...]` an
 * opaque token, and the rest text; `aligned: false` gives the text no offsets.
 */
function items (source: string, aligned = true): Item[] {
  const out: Item[] = []
  for (const m of source.matchAll(/<\/[a-z]+>|<[a-z]+>|\[[^\]]*\]|[^<[]+/g)) {
    const start = m.index
    const end = start + m[0].length
    if (m[0].startsWith('</')) out.push({ kind: 'close', start, end })
    else if (m[0].startsWith('<')) out.push({ kind: 'open', start, end })
    else if (m[0].startsWith('[')) out.push({ kind: 'token', start, end, weak: false, breaks: false })
    else out.push({ kind: 'text', start, end, text: m[0], offsets: aligned ? alignText(m[0], source, start, end, { escapes: false }) : null })
  }
  return out
}

/** The items written back as their source: a token made here as {…}. */
function show (source: string, kept: Item[]): string {
  return kept.map(item => item.kind === 'token' && item.weak ? `{${source.slice(item.start, item.end)}}` : item.kind === 'text' ? item.text : source.slice(item.start, item.end)).join('')
}

const keep = (source: string, aligned = true): string => show(source, keepVerbatim(items(source, aligned)))

describe('keepVerbatim', () => {
  it('makes a URL, mention or hashtag split over elements one token, with every element it opens or closes', () => {
    expect(keep('Read <a><s>https://</s><s>example.com/</s><s>ease</s></a> today')).toBe('Read {<a><s>https://</s><s>example.com/</s><s>ease</s></a>} today')
    expect(keep('I love <a>#<s>cats</s></a> a lot')).toBe('I love {<a>#<s>cats</s></a>} a lot')
    expect(keep('Go to https://example.com/<b>docs and</b> more')).toBe('Go to {https://example.com/<b>docs and</b>} more')
  })

  it('makes mentions, hashtags and shortcodes tokens inside one text item, several in one', () => {
    expect(keep('Hi @bob and #cats :blobcat: now')).toBe('Hi {@bob} and {#cats} {:blobcat:} now')
  })

  it('makes an element without prose a token, and leaves one with words and its single-node URL alone', () => {
    expect(keep('Wow<b>!</b> <i></i>red <b>see example.com</b>')).toBe('Wow{<b>!</b>} {<i></i>}red <b>see example.com</b>')
  })

  it('makes an element holding only an absolute path a token, a one-segment one too', () => {
    expect(keep('binaries in <tt>/bin</tt>? or <tt>/opt/x</tt>, <tt>/my-app.d</tt> and <i> /srv </i> but <b>/ a</b>, <b>/x y</b>'))
      .toBe('binaries in {<tt>/bin</tt>}? or {<tt>/opt/x</tt>}, {<tt>/my-app.d</tt>} and {<i> /srv </i>} but <b>/ a</b>, <b>/x y</b>')
    const doc = segmentDocument('<p>Who owns the binaries in <tt>/bin</tt> and <tt>/data</tt>?</p>', 'text/html')
    expect(doc.segments).toEqual(['Who owns the binaries in <x id="1"/> and <x id="2"/>?'])
  })

  it('takes an @ or # right before a token with it', () => {
    expect(keep('Thanks @[bob@host.org] and #[x]!')).toBe('Thanks {@[bob@host.org]} and {#[x]}!')
  })

  it('leaves alone what would cut a text item whose offsets are unknown', () => {
    expect(keep('Hi @bob now', false)).toBe('Hi @bob now')
    expect(keep('<a>@bob</a> now', false)).toBe('{<a>@bob</a>} now')
  })

  it('rebuilds any mix of posts\' parts byte for byte, and never fails on an engine that moves or drops tags', () => {
    const parts = ['@', '#', ':', 'bob', ' ', 'https://', 'example.com/', '<span>', '</span>', '<b>', '</b>', '<a href="x">', '</a>', '<img src=y>', '<br>',
      '&amp;', 'The red car. ', '!', ':blobcat:', '@alice@host.org', '<i>', '</i>', '`', '*', '_', '[', '](u)', '\n', '<code>x</code>', '😺', '/bin', ' {#x .y}']
    let seed = 7
    const pick = (n: number): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n
    for (let i = 0; i < 500; i++) {
      const text = Array.from({ length: 1 + pick(12) }, () => parts[pick(parts.length)]).join('')
      for (const mime of ['text/html', 'text/markdown', 'text/plain'] as const) {
        const doc = segmentDocument(text, mime)
        expect(doc.rebuild(doc.segments), `${mime} ${JSON.stringify(text)}`).toBe(text)
        for (const engine of [upper, reverseWords, dropTags]) expect(typeof doc.rebuild(doc.segments.map(engine))).toBe('string')
      }
    }
  })
})
