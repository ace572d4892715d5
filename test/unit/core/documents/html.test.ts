import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'
import { describe, expect, it } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { MAX_SENTENCE_CHARS } from '../../../../src/core/documents/sentences.js'
import { dropTags, duplicateTags, fixture, recorded, reverseWords, upper } from './engines.js'
import { leastCpuMs } from '../../../helpers/timing.js'

const html = (value: string) => segmentDocument(value, 'text/html')
const through = (value: string, engine: (s: string) => string): unknown => {
  const doc = html(value)
  return doc.rebuild(doc.segments.map(engine))
}

describe('text/html: a full page', () => {
  const page = fixture('page.html')
  const doc = html(page)

  it('rebuilds byte for byte when nothing is translated', () => {
    expect(doc.rebuild(doc.segments)).toBe(page)
  })

  it('sends the visible text, the four text attributes, and nothing else', () => {
    expect(doc.segments).toEqual([
      'Acme Tools — Garden &amp; Home',
      'Main navigation',
      '<g id="1">Home</g> | <g id="2">Shop</g>',
      'Back to the home page',
      'Welcome to <g id="1">Acme</g> Tools!',
      'The <g id="1">red</g> shears are our best seller.',
      'Mr. Smith has used them since 1998.',
      'They cut through branches up to 2\u00a0cm thick… and they never rust.',
      'Questions?',
      'Write to <g id="1">our support team</g> or call us.',
      'We answer within one day.',
      'Red garden shears on a wooden table',
      'Our shears, photographed in the spring.',
      'Install the app with <x id="1"/> and run it.',
      'Made by <x id="1"/> in Berlin.',
      '<g id="1">Search the catalogue</g> <x id="2"/>',
      'Type a product name',
      'Search',
      'Search',
      'Product',
      'Price',
      'Garden shears',
      '© 2024 Acme Tools.',
      'All rights reserved.'
    ])
  })

  it('leaves head, scripts, styles, comments, code, pre, translate=no and .notranslate untouched', () => {
    const out = doc.rebuild(doc.segments.map(upper)) as string
    for (const kept of [
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<style>\n    body { font-family: "Helvetica Neue", sans-serif; }\n    .price::after { content: " incl. VAT"; }\n  </style>',
      '<script type="application/ld+json">{"@type": "Product", "name": "Garden Shears"}</script>',
      'console.log("<p>Hello</p>")',
      '<!-- main navigation -->',
      '<code>npm install acme-tools</code>',
      '<pre><code>acme --help\nacme prune --all</code></pre>',
      '<p class="notranslate">Acme Tools GmbH</p>',
      '<span translate="no">Acme Tools</span>',
      '<a href="/shop?cat=garden&amp;sort=price">',
      '<img src="/img/shears.jpg" alt="RED GARDEN SHEARS ON A WOODEN TABLE" width="640">',
      '<td class="price">24.99 &euro;</td>'
    ]) expect(out).toContain(kept)
    expect(out).toContain('<title>ACME TOOLS &mdash; GARDEN &amp; HOME</title>')
    expect(out).toContain('<p>THE <b>RED</b> SHEARS ARE OUR BEST SELLER. MR. SMITH HAS USED THEM SINCE 1998.\n       THEY CUT THROUGH BRANCHES UP TO 2&nbsp;CM THICK&hellip; AND THEY NEVER RUST.</p>')
    expect(out).toContain('<input id="q" type="search" placeholder="TYPE A PRODUCT NAME" aria-label="SEARCH">')
    expect(out).toContain('<nav aria-label="MAIN NAVIGATION">')
    expect(out).toContain('<a href="/" title="BACK TO THE HOME PAGE">HOME</a>')
  })
})

describe('text/html: inline elements follow their words', () => {
  it('keeps an inline element inside its sentence and maps it back to its own tags', () => {
    const engine = recorded({ 'The <g id="1">red</g> car': 'El coche <g id="1">rojo</g>' })
    expect(html('The <b>red</b> car').segments).toEqual(['The <g id="1">red</g> car'])
    expect(through('The <b>red</b> car', engine)).toBe('El coche <b>rojo</b>')
  })

  it('keeps attributes and entities of the tags it moves', () => {
    const source = '<p>Read <a href="/a?x=1&amp;y=2" class="btn">the guide</a> first.</p>'
    expect(through(source, reverseWords)).toBe('<p>first. <a href="/a?x=1&amp;y=2" class="btn">the guide</a> Read</p>')
  })

  it('translates the title of an inline element as a segment of its own, inside the moved tag', () => {
    const source = '<p>Ask <abbr title="World Health Organization">WHO</abbr> today.</p>'
    const doc = html(source)
    expect(doc.segments).toEqual(['Ask <g id="1">WHO</g> today.', 'World Health Organization'])
    expect(doc.rebuild(doc.segments.map(reverseWords)))
      .toBe('<p>today. <abbr title="Organization Health World">WHO</abbr> Ask</p>')
  })

  it('turns void and opaque inline elements into tokens', () => {
    const doc = html('<p>Press <kbd>Ctrl</kbd>+<kbd>S</kbd> to save <img src="i.png" alt=""> now.</p>')
    expect(doc.segments).toEqual(['Press <x id="1"/>+<x id="2"/> to save <x id="3"/> now.'])
    expect(doc.rebuild(doc.segments.map(reverseWords)))
      .toBe('<p>now. <img src="i.png" alt=""> save to <kbd>S</kbd> + <kbd>Ctrl</kbd> Press</p>')
  })

  it('sends an element that wraps a whole block as its text, and cuts sentences inside it', () => {
    const source = '<p><a href="/a"><b>Click here. Then there.</b></a></p>'
    expect(html(source).segments).toEqual(['Click here.', 'Then there.'])
    expect(through(source, upper)).toBe('<p><a href="/a"><b>CLICK HERE. THEN THERE.</b></a></p>')
  })

  it('never cuts a sentence inside an inline element', () => {
    expect(html('<p>One. <b>Two. Three.</b> Four.</p>').segments).toEqual(['One.', 'Two.', 'Three.', 'Four.'])
    expect(html('<p>One <b>two. Three</b> four.</p>').segments).toEqual(['One <g id="1">two. Three</g> four.'])
  })

  it('walks an inline element holding a block as a block, so words stay in their elements (a link wrapping a card was a 500)', () => {
    // the text each element holds itself, in a parse5 tree of the output
    const ownText = (out: string): string[] => {
      const texts: string[] = []
      const work: T.Node[] = [parseFragment(out)]
      for (let node = work.pop(); node !== undefined; node = work.pop()) {
        if (!('childNodes' in node)) continue
        const own = node.childNodes.filter((c): c is T.TextNode => c.nodeName === '#text').map(c => c.value).join('')
        if (own.trim() !== '') texts.push(`${node.nodeName}: ${own.trim()}`)
        work.push(...node.childNodes)
      }
      return texts.sort()
    }
    for (const source of [
      '<a href="/x"><h2>Title</h2>Read more</a>',
      '<a href="/x" title="Open the card"><div>Card</div>Read more</a>',
      '<span><p>x</p>y</span>',
      '<p>Before <b>bold</b></p><em>Lead <span><div>Inner text</div>after</span> tail.</em>',
      '<a href="/x"><h2>Title</h2></a>'
    ]) {
      const doc = html(source)
      expect(doc.rebuild(doc.segments), source).toBe(source)
      const out = doc.rebuild(doc.segments.map(upper)) as string
      expect(out, source).toBe(source.replace(/>([^<]+)</g, (_m, t: string) => `>${t.toUpperCase()}<`).replace('Open the card', 'OPEN THE CARD'))
      expect(ownText(out), source).toEqual(ownText(source).map(t => t.replace(/: (.*)/, (_m, w: string) => `: ${w.toUpperCase()}`)))
    }
    expect(html('<a href="/x"><h2>Title</h2>Read more</a>').segments).toEqual(['Title', 'Read more'])
  })

  it('ends a sentence at <br> and keeps the break in the skeleton', () => {
    const source = '<p>First line<br>second line</p>'
    expect(html(source).segments).toEqual(['First line', 'second line'])
    expect(through(source, upper)).toBe('<p>FIRST LINE<br>SECOND LINE</p>')
  })
})

describe('text/html: social posts (Mastodon, Pleroma, Discourse)', () => {
  const link = '<a href="https://example.com/news/ease" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span>' +
    '<span class="ellipsis">example.com/news/</span><span class="invisible">ease</span></a>'
  const hashtag = '<a href="https://mastodon.social/tags/cats" class="mention hashtag" rel="tag">#<span>cats</span></a>'
  const card = '<span class="h-card"><a href="https://mastodon.social/@bob" class="u-url mention">@<span>bob</span></a></span>'

  it('keeps a link whose URL is split over spans whole: no word moves into its spans, no part of it is translated', () => {
    const source = `<p>Read ${link} today, it is good.</p>`
    expect(html(source).segments).toEqual(['Read <x id="1"/> today, it is good.'])
    expect(through(source, upper)).toBe(`<p>READ ${link} TODAY, IT IS GOOD.</p>`)
    expect(through(source, reverseWords)).toBe(`<p>good. is it today, ${link} Read</p>`)
  })

  it('keeps a hashtag link with its # and a mention with its @, in the post\'s order', () => {
    const source = `<p>${card} I love ${hashtag} and <a class="mention" href="/u/bob">@bob</a> too :blobcat:</p>`
    // the mention opening the reply and the shortcode closing it stay in the skeleton, where they were
    expect(html(source).segments).toEqual(['I love <x id="1"/> and <x id="2"/> too'])
    expect(through(source, upper)).toBe(`<p>${card} I LOVE ${hashtag} AND <a class="mention" href="/u/bob">@bob</a> TOO :blobcat:</p>`)
    expect(through(source, reverseWords)).toBe(`<p>${card} too <a class="mention" href="/u/bob">@bob</a> and ${hashtag} love I :blobcat:</p>`)
  })

  it('keeps a mention, hashtag or shortcode inside one text node, and a URL split by any inline element', () => {
    expect(html('<p>Thanks @alice@example.social for #Caturday :blobcat: pics</p>').segments)
      .toEqual(['Thanks <x id="1"/> for <x id="2"/> <x id="3"/> pics'])
    const source = '<p>See https://example.com/<b>docs</b>/start now</p>'
    expect(html(source).segments).toEqual(['See <x id="1"/> now'])
    expect(through(source, upper)).toBe('<p>SEE https://example.com/<b>docs</b>/start NOW</p>')
  })

  it('makes an inline element of punctuation, symbols, nothing or verbatim text a token, so its content stays and no word lands in it', () => {
    const source = '<p>Wow<b>!</b> a <span class="invisible"></span>red <em>→</em> car at <a href="https://example.com">https://example.com</a></p>'
    expect(html(source).segments).toEqual(['Wow<x id="1"/> a <x id="2"/>red <x id="3"/> car at'])
    expect(through(source, reverseWords)).toBe('<p>at car <em>→</em> red <span class="invisible"></span> a <b>!</b> Wow <a href="https://example.com">https://example.com</a></p>')
  })

  it('still moves an element that holds words with its words, a URL inside it protected later', () => {
    expect(html('<p>See <a href="/g">the guide at example.com</a> now.</p>').segments).toEqual(['See <g id="1">the guide at example.com</g> now.'])
  })
})

describe('text/html: engines that damage tags', () => {
  const source = '<p>The <b>red</b> car and the <i>blue</i> <img src="b.png"> bike.</p>'

  it('keeps the text of dropped pairs and appends lost tokens', () => {
    expect(through(source, dropTags)).toBe('<p>The red car and the blue bike. <img src="b.png"></p>')
  })

  it('writes a duplicated pair or token once', () => {
    expect(through(source, duplicateTags)).toBe(source)
  })

  it('closes a pair the engine left open and ignores unknown ids', () => {
    const engine = recorded({ 'The <g id="1">red</g> car and the <g id="2">blue</g> <x id="3"/> bike.': 'El <g id="1">coche <g id="9">rojo <x id="3"/> y <x id="7"/>la bici <g id="2">azul' })
    expect(through(source, engine)).toBe('<p>El <b>coche rojo <img src="b.png"> y la bici </b><i>azul</i></p>')
  })

  it('keeps sibling links siblings when the engine answers one inside the other (Apertium on an e-mail footer)', () => {
    const engine = recorded({ '<g id="1">unsubscribe from this list</g> | <g id="2">update subscription preferences</g>': '<g id="1">unsubscribe De estas <g id="2">preferencias | de suscripción de actualización</g> de lista</g>' })
    expect(through('<p><a href="/u">unsubscribe from this list</a> | <a href="/p">update subscription preferences</a></p>', engine))
      .toBe('<p><a href="/u">unsubscribe De estas </a><a href="/p">preferencias | de suscripción de actualización</a> <a href="/u">de lista</a></p>')
  })

  it('follows an engine that swaps nested pairs, still balanced', () => {
    const engine = recorded({ '<g id="1">Very <g id="2">important</g></g> note.': '<g id="2">Nota <g id="1">muy</g> importante</g>.' })
    expect(through('<p><b>Very <i>important</i></b> note.</p>', engine)).toBe('<p><i>Nota <b>muy</b> importante</i>.</p>')
  })
})

describe('text/html: source fidelity', () => {
  it('keeps entities of unchanged segments and escapes translated text', () => {
    const source = '<p>Tom &amp; Jerry &eacute;t&eacute; &lt;3</p><p>Caf&#233; 5&nbsp;&euro;</p>'
    const doc = html(source)
    expect(doc.segments).toEqual(['Tom &amp; Jerry été &lt;3', 'Café 5\u00a0€'])
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(['Tom &amp; Jerry &lt;b&gt;', 'Café 5\u00a0€'])).toBe('<p>Tom &amp; Jerry &lt;b&gt;</p><p>Caf&#233; 5&nbsp;&euro;</p>')
  })

  it('keeps the raw text of noembed and noframes as written (html5lib\'s noscript01 came back with &lt;/noscript&gt; a browser shows)', () => {
    for (const name of ['noembed', 'noframes']) {
      const source = `<p>Hello</p><${name}>Hello <b>world</b> & you</${name}>`
      const doc = html(source)
      expect(doc.segments, name).toEqual(['Hello'])
      expect(doc.rebuild(['Hola']), name).toBe(source.replace('<p>Hello', '<p>Hola'))
    }
  })

  it('writes the source\'s own character references back into translated text and attributes', () => {
    const source = '<p title="Jos&eacute; &quot;5&euro;&quot; &mdash; &#169;">Jos&eacute; said &quot;5&euro;&quot; &mdash; &#169; &#x2122;</p>'
    const doc = html(source)
    expect(doc.segments).toEqual(['José "5€" — ©', 'José said "5€" — © ™'])
    expect(doc.rebuild(['José "5€" — © €', 'José dijo "5€" — © ™ también'])).toBe(
      '<p title="Jos&eacute; &quot;5&euro;&quot; &mdash; &#169; &euro;">Jos&eacute; dijo &quot;5&euro;&quot; &mdash; &#169; &#x2122; tambi&eacute;n</p>')
  })

  it('writes a character as usual where the source spelled it more than one way, or without its ";"', () => {
    const doc = html('<p>Caf&eacute; and café, &quot;quoted&quot; and "plain", 5&euro; or 5&#8364;, a&nbsp;b &copy 2024.</p>')
    // a legacy reference without its ";" is not written back either: what follows could change it
    expect(doc.rebuild(['Café y café, "citado" y "llano", 5€ o 5€, a\u00a0b © 2024.']))
      .toBe('<p>Café y café, "citado" y "llano", 5€ o 5€, a&nbsp;b © 2024.</p>')
  })

  it('escapes translated attribute values for their own quoting', () => {
    const doc = html('<img alt="a" title=\'b\'><input placeholder=c>')
    expect(doc.segments).toEqual(['a', 'b', 'c'])
    expect(doc.rebuild(['Say "hi" & go', "It's", 'two words']))
      .toBe('<img alt="Say &quot;hi&quot; &amp; go" title=\'It&#39;s\'><input placeholder=two&#32;words>')
  })

  it('translates a button\'s label (the value of a submit, button or reset input), never another input\'s value (a probe\'s "Send message" stayed English)', () => {
    const doc = html('<form><input type="submit" value="Send message"><INPUT TYPE=Reset value=\'Clear\'><input type="button" value="Go back" title="Back"><input type="text" value="Your name"><input type="hidden" name="a" value="keep this"></form>')
    expect(doc.segments).toEqual(['Send message', 'Clear', 'Go back', 'Back'])
    expect(doc.rebuild(doc.segments.map(s => s.toUpperCase())))
      .toBe('<form><input type="submit" value="SEND MESSAGE"><INPUT TYPE=Reset value=\'CLEAR\'><input type="button" value="GO BACK" title="BACK"><input type="text" value="Your name"><input type="hidden" name="a" value="keep this"></form>')
  })

  it('keeps CRLF line ends and upper-case tags of the source', () => {
    const source = '<P>Hello <B>World</B>.\r\nSecond   line here.</P>'
    expect(html(source).segments).toEqual(['Hello <g id="1">World</g>.', 'Second line here.'])
    expect(through(source, upper)).toBe('<P>HELLO <B>WORLD</B>.\r\nSECOND LINE HERE.</P>')
  })

  it('handles fragments, including table parts out of context', () => {
    expect(through('<tr><td>Cell one.</td><td>Cell two</td></tr>', upper)).toBe('<tr><td>CELL ONE.</td><td>CELL TWO</td></tr>')
    expect(through('Just text, <i>no</i> block.', upper)).toBe('JUST TEXT, <i>NO</i> BLOCK.')
  })

  it('survives misnested tags and text the parser moves, rebuilding every byte', () => {
    const source = '<p>Some <b>bold <i>both</b> italic</i> text. More.</p><table><tr>stray<td>cell</td></tr></table>'
    const doc = html(source)
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(doc.segments.map(upper))).toBe('<p>SOME <b>BOLD <i>BOTH</b> ITALIC</i> TEXT. MORE.</p><table><tr>STRAY<td>CELL</td></tr></table>')
  })

  it('keeps a stray tag the parser ignored, once, in its place (</span>, </td> or a <td> outside a table were deleted)', () => {
    for (const [source, stray] of [
      ['<p>The red car</span> is fast.</p>', ['</span>']],
      ['<p>The <i>red</i> car</b> is fast.</p>', ['</b>']],
      ['<p>The dog</td> runs. It is fast.</p>', ['</td>']],
      ['<p><strong><td>is big</td>fast dog</strong></p>', ['<td>', '</td>']],
      ['<p>A &amp; B</span class="x>y"> and C&lt;D fast</p>', ['</span class="x>y">']]
    ] as const) {
      const doc = html(source)
      expect(doc.rebuild(doc.segments)).toBe(source)
      const out = doc.rebuild(doc.segments.map(upper)) as string
      for (const tag of stray) expect(out.split(tag).length - 1, out).toBe(source.split(tag).length - 1)
      expect(out).not.toMatch(/fast|big/)
    }
  })

  it('leaves segments with no letters in the skeleton', () => {
    expect(html('<p>2024</p><p>&nbsp;</p><p>— 42 —</p>').segments).toEqual([])
  })

  it('keeps void inline elements in unchanged inline code and untouched translate=no blocks', () => {
    const source = '<div translate="no"><p>Keep <b>this</b>.</p></div><p>Use <code>a &lt; b</code> here.</p>'
    expect(through(source, upper)).toBe('<div translate="no"><p>Keep <b>this</b>.</p></div><p>USE <code>a &lt; b</code> HERE.</p>')
  })

  it('translates the placeholder and title of a textarea, never its content; a pre stays byte for byte', () => {
    const source = '<textarea placeholder="Your message" title="Message">Keep this text.</textarea><pre title="Example">keep  this</pre><textarea translate="no" placeholder="Not this"></textarea>'
    const doc = html(source)
    expect(doc.segments).toEqual(['Your message', 'Message'])
    expect(doc.rebuild(doc.segments.map(upper))).toBe(source.replace('Your message', 'YOUR MESSAGE').replace('"Message"', '"MESSAGE"'))
  })

  it('puts each translated attribute back inside its own tag when one sentence holds many', () => {
    // 200 words: the sentence stays under MAX_SENTENCE_CHARS, so it is one segment
    const source = '<p>' + Array.from({ length: 200 }, (_, i) => `<span title="tip ${i}">word${i} </span>`).join('') + 'end.</p>'
    const doc = html(source)
    expect(doc.segments).toHaveLength(201)
    const out = doc.rebuild(doc.segments.map(upper)) as string
    expect(out).toBe(source.replace(/tip \d+|word\d+|end/g, w => w.toUpperCase()))
  })

  it('cuts a sentence over MAX_SENTENCE_CHARS between inline elements, and rebuilds it', () => {
    const source = '<p>' + Array.from({ length: 600 }, (_, i) => `<b title="tip ${i}">word${i}</b> `).join('') + 'end.</p>'
    const doc = html(source)
    const sentences = doc.segments.filter(s => s.includes('word'))
    expect(sentences.length).toBeGreaterThan(1)
    for (const s of sentences) expect(s.replace(/<[^>]*>/g, '').length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS)
    expect(doc.rebuild(doc.segments.map(upper))).toBe(source.replace(/tip \d+|word\d+|end/g, w => w.toUpperCase()))
  })

  it('cuts a sentence over MAX_SENTENCE_CHARS inside an inline element, closing and reopening it around each cut', () => {
    const words = Array.from({ length: 1500 }, (_, i) => `zorb${i}`).join(' ')
    const source = `<p>Start <b>bold <i>${words}</i> tail</b> end</p>`
    const doc = html(source)
    expect(doc.segments.length).toBeGreaterThan(3)
    for (const s of doc.segments) expect(s.replace(/<[^>]*>/g, '').length).toBeLessThanOrEqual(MAX_SENTENCE_CHARS)
    // every piece is balanced and carries the elements open where it starts
    for (const s of doc.segments) expect(s.match(/<g /g)?.length ?? 0).toBe(s.match(/<\/g>/g)?.length ?? 0)
    expect(doc.segments[0]).toMatch(/^Start <g id="1">bold <g id="2">zorb0 .*<\/g><\/g>$/)
    expect(doc.segments[1]).toMatch(/^zorb\d+ .*zorb\d+$/)
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(doc.segments.map(upper))).toBe(source.replace(/>([^<]+)</g, (_m, t: string) => `>${t.toUpperCase()}<`))
  })

  it('walks very deep trees without running out of stack', () => {
    const source = '<div>'.repeat(20000) + '<p>' + '<b>Deep. '.repeat(3000) + 'End.</p>'
    const doc = html(source)
    expect(doc.segments).toHaveLength(3001)
    expect(doc.segments[0]).toBe('Deep.')
    expect(doc.rebuild(doc.segments)).toBe(source)
    expect(doc.rebuild(doc.segments.map(upper))).toBe(source.replace(/Deep|End/g, w => w.toUpperCase()))
  })
})

describe('text/html: text marked as another language', () => {
  const english = (value: string) => segmentDocument(value, 'text/html', { language: 'en' })

  it('leaves a block and an inline span in another language as written; the source language in another region, or unknown, is translated', () => {
    const source = '<p>He said:</p><blockquote lang="fr"><p>Je pense, donc je suis.</p></blockquote>' +
      '<p>It was <span lang="fr">la vie en rose</span> and <i xml:lang="la">vidi in ampulla</i>.</p>' +
      '<p lang="en-GB">The colour is grey.</p><p lang="">Unknown language.</p>'
    const doc = english(source)
    expect(doc.segments).toEqual(['He said:', 'It was <x id="1"/> and <x id="2"/>.', 'The colour is grey.', 'Unknown language.'])
    expect(doc.rebuild(doc.segments.map(upper), 'es')).toBe(source
      .replace('He said:', 'HE SAID:').replace('It was', 'IT WAS').replace(' and ', ' AND ')
      .replace('The colour is grey.', 'THE COLOUR IS GREY.').replace('Unknown language.', 'UNKNOWN LANGUAGE.'))
  })

  it('compares with the source it is given, and reads everything when none is', () => {
    const source = '<p lang="en">Hello.</p><p lang="fr">Bonjour.</p>'
    expect(segmentDocument(source, 'text/html', { language: 'fr-CA' }).segments).toEqual(['Bonjour.'])
    expect(segmentDocument(source, 'text/html', { language: 'und' }).segments).toEqual(['Hello.', 'Bonjour.'])
    expect(html(source).segments).toEqual(['Hello.', 'Bonjour.'])
  })

  it('reads a page whose own <html lang> or <body lang> names another language as the source: the request says what it is', () => {
    expect(english('<!doctype html><html lang="fr"><body><p>Hello.</p></body></html>').segments).toEqual(['Hello.'])
    // InDesign's EPUB export (pandoc's epub2 test book) marks the body with its default language, whatever the text is
    expect(english('<html><body xml:lang="de-DE"><p>Hello.</p></body></html>').segments).toEqual(['Hello.'])
  })
})

describe('text/html: a page\'s own language', () => {
  it('reads comments before a page or a fragment in linear time (25 empty comments before a <p> held the thread for seconds: 2^n ways to read them)', () => {
    const page = (n: number): string => '<!---->'.repeat(n) + '<p>The red car is fast.</p>'
    const time = (n: number): number => leastCpuMs(() => {
      const doc = segmentDocument(page(n), 'text/html', { language: 'en' })
      doc.rebuild(doc.segments.map(upper), 'es')
    })
    time(40)
    const small = time(1_000)
    const large = time(10_000)
    // linear gives about 10x
    expect(large, `${small.toFixed(1)} ms, then ${large.toFixed(1)} ms`).toBeLessThan(small * 40 + 50)
  })

  it('finds the <body> after a head in linear time (the tag was searched for from every "<body": 32,000 unclosed ones, 192 KB, were refused as too complex)', () => {
    const page = (n: number): string => '<html lang="en"><head><title>The red car is fast.</title></head>' + '<body '.repeat(n)
    const time = (n: number): number => leastCpuMs(() => {
      const doc = segmentDocument(page(n), 'text/html', { language: 'en' })
      doc.rebuild(doc.segments.map(upper), 'es')
    })
    time(40)
    const small = time(1_000)
    const large = time(16_000)
    // linear gives about 16x
    expect(large, `${small.toFixed(1)} ms, then ${large.toFixed(1)} ms`).toBeLessThan(small * 60 + 100)
  })

  it('renames the page\'s own <body lang>, not one spelled in a script of its head', () => {
    const page = '<!DOCTYPE html><html lang="en"><head><script>var tpl = \'</head><body lang="en">\';</script></head><body lang="en"><p>The red car is fast.</p></body></html>'
    const doc = segmentDocument(page, 'text/html', { language: 'en' })
    expect(doc.rebuild(doc.segments.map(upper), 'es')).toBe(page.replace('<html lang="en">', '<html lang="es">')
      .replace('</script></head><body lang="en">', '</script></head><body lang="es">').replace('The red car is fast.', 'THE RED CAR IS FAST.'))
  })

  it('names the target in the <body lang> too, and after an XML declaration', () => {
    const page = '<?xml version="1.0"?>\n<!DOCTYPE html>\n<html lang="en"><head><script>var b = "<body lang=en>"</script></head>\n<body lang="en-US" class="x"><p>Hello.</p></body></html>'
    const doc = segmentDocument(page, 'text/html', { language: 'en' })
    expect(doc.rebuild(doc.segments.map(upper), 'es')).toBe(page.replace('<html lang="en">', '<html lang="es">')
      .replace('<body lang="en-US" class="x">', '<body lang="es" class="x">').replace('Hello.', 'HELLO.'))
  })

  it('names the target where it named the source, translated', () => {
    const page = '<!DOCTYPE html>\n<!-- <html lang="en"> -->\n<html lang="en-US" xml:lang=en title="A page"><head><title>Hi</title></head><body><p lang="en">Hello.</p></body></html>'
    const doc = segmentDocument(page, 'text/html', { language: 'en' })
    expect(doc.rebuild(doc.segments.map(upper), 'es')).toBe(page
      .replace('<html lang="en-US" xml:lang=en title="A page">', '<html lang="es" xml:lang="es" title="A PAGE">').replace('Hi', 'HI').replace('Hello.', 'HELLO.'))
    expect(doc.rebuild(doc.segments)).toBe(page)
  })

  it('keeps one that named another language, and a fragment has none', () => {
    const page = '<html lang="fr"><body><p>Hello.</p></body></html>'
    const doc = segmentDocument(page, 'text/html', { language: 'en' })
    expect(doc.rebuild(doc.segments.map(upper), 'es')).toBe(page.replace('Hello.', 'HELLO.'))
    const fragment = segmentDocument('<p lang="en">Hello.</p>', 'text/html', { language: 'en' })
    expect(fragment.rebuild(fragment.segments.map(upper), 'es')).toBe('<p lang="en">HELLO.</p>')
  })
})
