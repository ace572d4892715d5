import { describe, expect, it } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import type { Nodes, Paragraph } from 'mdast'
import { parseMarkdown } from '../../../../src/core/documents/markdown-parse.js'
import { attributeBlocks } from '../../../../src/core/documents/markdown.js'
import { fixture, recorded, reverseWords, upper } from './engines.js'

const md = (value: string) => segmentDocument(value, 'text/markdown')
const through = (value: string, engine: (s: string) => string): unknown => {
  const doc = md(value)
  return doc.rebuild(doc.segments.map(engine))
}

describe('text/markdown: a README', () => {
  const readme = fixture('readme.md')
  const doc = md(readme)

  it('rebuilds byte for byte when nothing is translated', () => {
    expect(doc.rebuild(doc.segments)).toBe(readme)
  })

  it('sends headings, paragraphs, list items, table cells, link text and alt text', () => {
    expect(doc.segments).toEqual([
      'Acme CLI',
      'Build status',
      'Acme is a small command-line tool for gardeners.',
      'It keeps track of your plants and reminds you when to water them.',
      'See the <g id="1">user guide</g> for details, or read the <g id="2">quick start</g> below.',
      'Installation',
      'Install it with <x id="1"/>:',
      'Then run <x id="1"/> to see <g id="2">all plants that need water</g>.',
      '<g id="1">Note:</g> the first run downloads the plant database (about 20 MB).',
      'It is cached in <x id="1"/>.',
      'Options',
      'Option',
      'Description',
      'Show every plant, even healthy ones.',
      'Print the result as JSON | for scripts.',
      'Create a garden.',
      'Add your plants.',
      'Roses need water every two days.',
      'Cacti almost never do.',
      'Visit <x id="1"/> or <x id="2"/> for more.',
      'Questions go to <g id="1">the forum</g>.'
    ])
  })

  it('reads Windows line ends (CRLF) as line ends: the same sentences, no carriage return sent or left mid-line', () => {
    const crlf = readme.replaceAll('\n', '\r\n')
    const windows = md(crlf)
    expect(windows.segments).toEqual(doc.segments)
    expect(windows.rebuild(windows.segments)).toBe(crlf)
    const out = windows.rebuild(windows.segments.map(upper)) as string
    expect(out.replace(/\r\n/g, '')).not.toMatch(/\r/)
    expect(out.replaceAll('\r\n', '\n')).toBe(doc.rebuild(doc.segments.map(upper)))
  })

  it('writes no markers for an element whose words the engine emptied (was "modesta.__")', () => {
    const doc = md('Listeners _will_ impose a **modest** penalty.\n')
    expect(doc.segments).toEqual(['Listeners <g id="1">will</g> impose a <g id="2">modest</g> penalty.'])
    expect(doc.rebuild(['Los oyentes imponen una pena <g id="2">modesta</g>.<g id="1"></g>'])).toBe('Los oyentes imponen una pena **modesta**.\n')
    const html = segmentDocument('<p>The <a href="/x"></a> inner <tt>do</tt>-loop.</p>', 'text/html')
    expect(html.segments).toEqual(['The <x id="1"/> inner <g id="2">do</g>-loop.'])
    expect(html.rebuild(['El <x id="1"/> interior -el bucle.<g id="2"></g>'])).toBe('<p>El <a href="/x"></a> interior -el bucle.</p>')
  })

  it('keeps front matter, code, URLs, HTML, definitions and table syntax byte for byte', () => {
    const out = doc.rebuild(doc.segments.map(upper)) as string
    for (const kept of [
      '---\ntitle: Acme CLI\ntags: [cli, tools]\n---\n',
      '```sh\nnpm install -g acme-cli\nacme init --name "My garden"\n```',
      '    indented code block stays as it is',
      '<div align="center">\n  <img src="logo.png" alt="Acme logo">\n</div>',
      '[forum]: https://forum.example.com',
      '[![BUILD STATUS](https://ci.example.com/acme/badge.svg)](https://ci.example.com/acme)',
      '[USER GUIDE](https://docs.example.com/guide "Guide")',
      'VISIT <https://acme.example> OR www.acme.example FOR MORE.',
      '[THE FORUM][forum]',
      '| `--all` | SHOW EVERY PLANT, EVEN HEALTHY ONES. |',
      '| `--json` | PRINT THE RESULT AS JSON \\| FOR SCRIPTS. |',
      '|--------|-------------|',
      '   - ROSES NEED WATER EVERY TWO DAYS.',
      '# ACME CLI\n',
      '## INSTALLATION\n'
    ]) expect(out).toContain(kept)
  })

  it('writes a translated sentence that spanned lines on one line, keeping block prefixes', () => {
    const out = doc.rebuild(doc.segments.map(upper)) as string
    expect(out).toContain('> **NOTE:** THE FIRST RUN DOWNLOADS THE PLANT DATABASE (ABOUT 20 MB).\n> IT IS CACHED IN `~/.acme`.')
    expect(out).toContain('GARDENERS. IT KEEPS TRACK OF YOUR PLANTS AND REMINDS YOU WHEN TO WATER THEM. SEE THE [USER GUIDE]')
  })
})

describe('text/markdown: inline markup', () => {
  it('moves emphasis and links with their words', () => {
    const engine = recorded({ 'The <g id="1">red</g> car, see <g id="2">the docs</g>.': 'El coche <g id="1">rojo</g>, ver <g id="2">la documentación</g>.' })
    expect(through('The **red** car, see [the docs](https://x.example/docs).', engine))
      .toBe('El coche **rojo**, ver [la documentación](https://x.example/docs).')
  })

  it('never writes a link inside a sibling link when the engine answers one inside the other (Apertium on an e-mail footer)', () => {
    const engine = recorded({ '<g id="1">unsubscribe from this list</g> | <g id="2">update subscription preferences</g>': '<g id="1">unsubscribe De estas <g id="2">preferencias | de suscripción de actualización</g> de lista</g>' })
    expect(through('[unsubscribe from this list](/u) | [update subscription preferences](/p)', engine))
      .toBe('[unsubscribe De estas ](/u)[preferencias \\| de suscripción de actualización](/p) [de lista](/u)')
  })

  it('pairs inline HTML tags around their words and keeps opaque HTML whole', () => {
    const doc = md('Press <kbd>Ctrl</kbd> and <b>read <i>this</i></b> now.')
    expect(doc.segments).toEqual(['Press <x id="1"/> and <g id="2">read <g id="3">this</g></g> now.'])
    expect(doc.rebuild(doc.segments.map(reverseWords))).toBe('now. <b>read <i>this</i></b> and <kbd>Ctrl</kbd> Press')
  })

  it('keeps references whose label is their text, and footnotes, as tokens', () => {
    const doc = md('See [Acme] and [the site][acme] and note[^1].\n\n[acme]: https://acme.example\n[^1]: A footnote.')
    expect(doc.segments).toEqual(['See <x id="1"/> and <g id="2">the site</g> and note<x id="3"/>.', 'A footnote.'])
  })

  it('translates image alt text inside the image syntax', () => {
    const source = '![A *fancy* logo](logo.png "Logo title")'
    expect(md(source).segments).toEqual(['A fancy logo'])
    expect(through(source, upper)).toBe('![A FANCY LOGO](logo.png "Logo title")')
  })

  it('escapes translated text so it stays text', () => {
    const engine = recorded({ Price: '# 1. *not* [a link] | a_b _em_ <tag> &amp;copy;' })
    expect(through('| Price |\n|---|\n| 5 |', engine)).toBe('| \\# 1. \\*not\\* [a link] \\| a_b \\_em\\_ \\<tag> \\&copy; |\n|---|\n| 5 |')
    const numbered = recorded({ Year: '1986. A year' })
    expect(through('# Year', numbered)).toBe('# 1986\\. A year')
  })

  it('writes placeholders back unescaped, and what it leaves unescaped parses as plain text', () => {
    // eslint-disable-next-line no-template-curly-in-string -- a JavaScript template placeholder, as text
    const text = 'Hi {user_name}, ${a_b} and %{c_d} for <0>you</0> or snake__case, 3 < 4 > 2'
    const out = through('Hello.', recorded({ 'Hello.': text })) as string
    expect(out).toBe(text)
    const tricky = '_a_ __b__ x_ _y <b>c</b> </i> <!-- d --> <ab:cd> *f* `g` [h](i) ~j~ a_b_ _c_d [k] ]l[ m ** n _ o ~'
    const escaped = through('Hello.', recorded({ 'Hello.': tricky })) as string
    const paragraph = parseMarkdown(escaped).children[0] as Paragraph
    expect(paragraph.children).toEqual([expect.objectContaining({ type: 'text', value: tricky })])
  })

  it('writes brackets and loose stars of the prose as they were (Pandoc citations, [sic], 2 * 3), escaped only where they could make a link or emphasis', () => {
    const source = 'The house [p. 30] is red [@smith04, p. 33], 2 * 3 [sic].'
    // the citation's key is a verbatim token, as a mention is
    const engine = recorded({ 'The house [p. 30] is red [<x id="1"/>, p. 33], 2 * 3 [sic].': 'La casa [p. 30] es roja [<x id="1"/>, p. 33], 2 * 3 [sic].' })
    expect(through(source, engine)).toBe('La casa [p. 30] es roja [@smith04, p. 33], 2 * 3 [sic].')
    // an unpaired bracket inside a link's text would end it; a pair before ( would be a link
    expect(through('See [the docs](https://x.org).', recorded({ 'See <g id="1">the docs</g>.': 'Ver <g id="1">los ] docs</g>.' }))).toBe('Ver [los \\] docs](https://x.org).')
    expect(through('Hello.', recorded({ 'Hello.': 'a [b](c) d' }))).toBe('a \\[b\\](c) d')
    // with a definition in the document, [b] could name it
    expect(through('Hello.\n\n[b]: https://x.org', recorded({ 'Hello.': 'a [b] d' }))).toBe('a \\[b\\] d\n\n[b]: https://x.org')
    // only a space or tab is white space around a loose star: U+FEFF is no white space to markdown-it
    expect(through('Hello.', recorded({ 'Hello.': 'car\uFEFF*\uFEFFis' }))).toBe('car\uFEFF\\*\uFEFFis')
    // at a block's start, [ ] could be a task list's box
    expect(through('- Hello.', recorded({ 'Hello.': '[ ] d' }))).toBe('- \\[ \\] d')
  })

  it('cuts a sentence over 2,000 characters inside emphasis, and rebuilds it', () => {
    const words = Array.from({ length: 1500 }, (_, i) => `zorb${i}`).join(' ')
    const source = `Start *${words}* end`
    const doc = md(source)
    expect(doc.segments.length).toBeGreaterThan(3)
    for (const s of doc.segments) expect(s.replace(/<[^>]*>/g, '').length).toBeLessThanOrEqual(2000)
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(doc.segments.map(upper))).toBe(source.toUpperCase())
  })

  it('decodes escapes and entities for the engine and keeps them when unchanged', () => {
    const source = 'Use \\*stars\\* &amp; &copy; signs.'
    const doc = md(source)
    expect(doc.segments).toEqual(['Use *stars* &amp; © signs.'])
    expect(doc.rebuild(doc.segments)).toBe(source)
  })

  it('keeps a hard line break between two sentences in the skeleton', () => {
    const source = 'First line  \nsecond line\\\nthird line'
    expect(md(source).segments).toEqual(['First line', 'second line', 'third line'])
    expect(through(source, upper)).toBe('FIRST LINE  \nSECOND LINE\\\nTHIRD LINE')
    // an inline <br> ends its sentence as in text/html (a line after it was read as the sentence before's)
    const html = 'We learn.<br>\nthe end<wbr>ing <br/> now.'
    expect(md(html).segments).toEqual(['We learn.', 'the end<x id="1"/>ing', 'now.'])
    expect(through(html, upper)).toBe('WE LEARN.<br>\nTHE END<wbr>ING <br/> NOW.')
  })

  it('writes an edited sentence over its source (inPlace): its lines, their quote markers and escapes kept, a changed word as translated', () => {
    const source = '> Use \\*stars\\* and teh\n> line that\n> follows.\n'
    const doc = segmentDocument(source, 'text/markdown', { inPlace: true })
    expect(doc.segments).toEqual(['Use *stars* and teh line that follows.'])
    expect(doc.rebuild(['Use *stars* and the line *that* follows.'])).toBe('> Use \\*stars\\* and the\n> line \\*that\\*\n> follows.\n')
    // translated, the sentence is written on one line
    expect(md(source).rebuild(['Use *stars* and the line that follows.'])).toBe('> Use \\*stars\\* and the line that follows.\n')
  })

  it('walks deeply nested inline HTML without running out of stack', () => {
    const source = '<span>'.repeat(5000) + 'Deep text.' + '</span>'.repeat(5000)
    const doc = md(source)
    expect(doc.segments).toEqual(['Deep text.'])
    expect(doc.rebuild(['Texto profundo.'])).toBe(source.replace('Deep text.', 'Texto profundo.'))
  })

  it('keeps mentions, hashtags, shortcodes and autolinks of a post byte for byte, a leading # unescaped and an @ with its user', () => {
    const source = '#rust is great, thanks @bob@fosstodon.org! See <https://example.com/a_b> and **@alice** or [#tag](https://x.social/tags/tag) :ferris:\n\n' +
      '_#emph_ and https://www.rust-lang.org/learn now.'
    // GFM reads bob@fosstodon.org as an e-mail link: its @ still goes with it
    expect(md(source).segments).toEqual(['is great, thanks <x id="1"/>!', 'See <x id="1"/> and <x id="2"/> or', 'and <x id="1"/> now.'])
    expect(through(source, upper)).toBe('#rust IS GREAT, THANKS @bob@fosstodon.org! SEE <https://example.com/a_b> AND **@alice** OR [#tag](https://x.social/tags/tag) :ferris:\n\n' +
      '_#emph_ AND https://www.rust-lang.org/learn NOW.')
    expect(through(source, reverseWords)).toBe('#rust ! @bob@fosstodon.org thanks great, is or **@alice** and <https://example.com/a_b> See [#tag](https://x.social/tags/tag) :ferris:\n\n' +
      '_#emph_ now. https://www.rust-lang.org/learn and')
  })

  it('translates a paragraph whose URL GFM linked after parsing ("[the docs][https://…]": the transform\'s nodes had no positions, and the paragraph was left out)', () => {
    const source = 'See [the docs][https://example.com/docs] for the red car.\n\n*See [x][https://a.com/b] now* and more.\n\n| a |\n|---|\n| see [x][www.example.com] ok |\n'
    expect(md(source).segments).toEqual(['See [the docs][<x id="1"/>] for the red car.', '<g id="1">See [x][<x id="2"/>] now</g> and more.', 'a', 'see [x][<x id="1"/>] ok'])
    const out = through(source, upper) as string
    // the URL byte for byte; the brackets around it are text (no label is defined), written as they were
    expect(out).toBe('SEE [THE DOCS][https://example.com/docs] FOR THE RED CAR.\n\n*SEE [X][https://a.com/b] NOW* AND MORE.\n\n| A |\n|---|\n| SEE [X][www.example.com] OK |\n')
  })

  it('keeps an attribute block ending a heading or a line ({#id .class key=value}: Pandoc, kramdown, markdown-it-attrs) out of the sentence, byte for byte', () => {
    const source = '## Getting started {#getting-started}\n\n# Install it {#install .class key="a b"} #\n\nSetext title {: #setext}\n===\n\n' +
      'A *styled* paragraph {.note data-x=1}\nthat goes on.\n\n- list item **bold**\n  {.red}\n\nBraces {.a b} stay prose {x=1 y}\n'
    const doc = md(source)
    expect(doc.segments).toEqual(['Getting started', 'Install it', 'Setext title', 'A <g id="1">styled</g> paragraph', 'that goes on.',
      'list item <g id="1">bold</g>', 'Braces {.a b} stay prose {x=1 y}'])
    expect(doc.rebuild(doc.segments.map(upper))).toBe('## GETTING STARTED {#getting-started}\n\n# INSTALL IT {#install .class key="a b"} #\n\nSETEXT TITLE {: #setext}\n===\n\n' +
      'A *STYLED* PARAGRAPH {.note data-x=1}\nTHAT GOES ON.\n\n- LIST ITEM **BOLD**\n  {.red}\n\nBRACES {.A B} STAY PROSE {X=1 Y}\n')
    expect(through('## Getting started {#getting-started}\n', reverseWords)).toBe('## started Getting {#getting-started}\n')
  })

  it('finds attribute blocks in linear time', () => {
    for (const text of ['{#a '.repeat(50_000) + '}', '{a="'.repeat(50_000) + '}', ' {#a'.repeat(50_000) + ' x}', 'x {' + '#a .b '.repeat(30_000) + '"}',
      '{#a' + ' .b'.repeat(50_000) + ' c}', '{a=' + '"b" '.repeat(50_000), '{#a}\n'.repeat(40_000), '}\n'.repeat(100_000)]) {
      const started = performance.now()
      attributeBlocks(text)
      expect(performance.now() - started, text.slice(0, 10)).toBeLessThan(1000)
    }
  })
})

/** The block structure of a Markdown document: each block's type, its children's nested. */
function blocks (source: string): unknown {
  const shape = (node: Nodes): unknown => 'children' in node && !['paragraph', 'heading', 'tableCell'].includes(node.type)
    ? { [node.type]: node.children.map(shape) }
    : node.type
  return shape(parseMarkdown(source))
}

describe('text/markdown: container prefixes and markers', () => {
  it('keeps a quote\'s `>` and a list item\'s indentation out of a sentence whose next line starts with a link, strong text or code', () => {
    for (const [source, segment, translated] of [
      ['> Install a font or\n> [Nerd Font](https://b.org/y) now.\n', 'Install a font or <g id="1">Nerd Font</g> now.', '> INSTALL A FONT OR [NERD FONT](https://b.org/y) NOW.\n'],
      ['> Install a font or\n> **bold** now.\n', 'Install a font or <g id="1">bold</g> now.', '> INSTALL A FONT OR **BOLD** NOW.\n'],
      ['> Install a font or\n> `code` now.\n', 'Install a font or <x id="1"/> now.', '> INSTALL A FONT OR `code` NOW.\n'],
      ['> > Install a font or\n> > [Nerd Font](https://b.org/y) now.\n', 'Install a font or <g id="1">Nerd Font</g> now.', '> > INSTALL A FONT OR [NERD FONT](https://b.org/y) NOW.\n'],
      ['- Install a font or\n  [Nerd Font](https://b.org/y) now.\n', 'Install a font or <g id="1">Nerd Font</g> now.', '- INSTALL A FONT OR [NERD FONT](https://b.org/y) NOW.\n'],
      ['> Run `a` or\r\n> `b` now.\r\n', 'Run <x id="1"/> or <x id="2"/> now.', '> RUN `a` OR `b` NOW.\r\n']
    ]) {
      const doc = md(source!)
      expect(doc.segments).toEqual([segment])
      const out = doc.rebuild(doc.segments.map(upper)) as string
      expect(out).toBe(translated)
      expect(blocks(out)).toEqual(blocks(source!))
      // edited over its source, its lines are kept with their prefixes
      const edited = segmentDocument(source!, 'text/markdown', { inPlace: true })
      expect(edited.rebuild(edited.segments.map(s => s.replace('Install', 'Get')))).toBe(source!.replace('Install', 'Get'))
    }
  })

  it('keeps GitHub alerts, MkDocs admonitions and content tabs, and Docusaurus/remark-directive containers verbatim, their titles translated', () => {
    for (const [source, segments, translated] of [
      ...['NOTE', 'TIP', 'IMPORTANT', 'WARNING', 'CAUTION', 'note', 'Tip'].map(kind =>
        [`> [!${kind}]\n> Useful information that users\n> should know.\n`, ['Useful information that users should know.'], `> [!${kind}]\n> USEFUL INFORMATION THAT USERS SHOULD KNOW.\n`] as const),
      ['> [!tip]- Fold me\n> Body text.\n', ['Fold me', 'Body text.'], '> [!tip]- FOLD ME\n> BODY TEXT.\n'],
      ['!!! note "Title here"\n    Body text.\n', ['Title here', 'Body text.'], '!!! note "TITLE HERE"\n    BODY TEXT.\n'],
      ['!!! danger highlight ""\n    Body text.\n', ['Body text.'], '!!! danger highlight ""\n    BODY TEXT.\n'],
      ['??? tip\n    Body.\n', ['Body.'], '??? tip\n    BODY.\n'],
      ['???+ note "Open me"\n\nBody.\n', ['Open me', 'Body.'], '???+ note "OPEN ME"\n\nBODY.\n'],
      ['=== "Feature enabled"\n    Body\n', ['Feature enabled', 'Body'], '=== "FEATURE ENABLED"\n    BODY\n'],
      [':::tip Title here\nBody text.\n:::\n', ['Title here', 'Body text.'], ':::tip TITLE HERE\nBODY TEXT.\n:::\n'],
      [':::tip\n\nBody text.\n\n:::\n', ['Body text.'], ':::tip\n\nBODY TEXT.\n\n:::\n'],
      ['::: warning Be careful\nBody text.\n:::\n', ['Be careful', 'Body text.'], '::: warning BE CAREFUL\nBODY TEXT.\n:::\n'],
      [':::note{title="x"}\nBody text.\n:::\n', ['Body text.'], ':::note{title="x"}\nBODY TEXT.\n:::\n'],
      [':::tip Title {#id}\nBody text.\n:::\n', ['Title', 'Body text.'], ':::tip TITLE {#id}\nBODY TEXT.\n:::\n'],
      ['- Item.\n\n  :::note[Label text]{#id}\n  Body text.\n  :::\n', ['Item.', 'Label text', 'Body text.'], '- ITEM.\n\n  :::note[LABEL TEXT]{#id}\n  BODY TEXT.\n  :::\n']
    ] as const) {
      const doc = md(source)
      expect(doc.segments, source).toEqual(segments)
      const out = doc.rebuild(doc.segments.map(upper)) as string
      expect(out).toBe(translated)
      expect(blocks(out)).toEqual(blocks(source))
    }
    expect(through('!!! note "Two words"\n', reverseWords)).toBe('!!! note "words Two"\n')
    // a marker is one only at the start of its line, an alert's only opening its quote
    expect(md('See :::tip and [!NOTE] here.\n\n> Text\n> [!NOTE]\n').segments).toEqual(['See :::tip and [!NOTE] here.', 'Text [!NOTE]'])
  })
})

describe('text/markdown: escapes where a translated line could start a block', () => {
  // after a hard break, the second sentence starts a line of the same paragraph (where a setext underline could be)
  const second = (answer: string): string => through('First line  \nHello.', recorded({ 'First line': 'First line', 'Hello.': answer })) as string

  it('leaves a character that starts no block there as written', () => {
    for (const answer of ['+1 for this', '-5 degrees', '=== "Feature enabled"', '==marked==', '#hashtag', '3.14 is pi', '--> here', '???+ note', '1.5 times']) {
      const out = second(answer)
      expect(out).toBe(`First line  \n${answer}`)
      expect(blocks(out)).toEqual(blocks('a'))
    }
    expect(through('- ==marked==', upper)).toBe('- ==MARKED==')
  })

  it('escapes one that would start a block: a list item, a heading, a quote, a setext underline, a thematic break', () => {
    for (const answer of ['- a', '+ b', '* c', '-', '# d', '###### e', '#', '> f', '>g', '===', '--- ', '---', '1. h', '1) i', '2.', '- - -']) {
      const out = second(answer)
      expect(out, answer).not.toBe(`First line  \n${answer}`)
      expect(blocks(out), answer).toEqual(blocks('a'))
      expect(out.replace(/\\/g, '')).toBe(`First line  \n${answer}`)
    }
  })
})
