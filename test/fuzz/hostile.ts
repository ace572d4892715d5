/**
 * Hostile inputs: strings (huge, lone surrogates, bidi and zero-width marks, NUL, emoji) and
 * documents for each MIME type (pathological HTML, Markdown and JSON). Each is built from a few
 * small numbers, so a failing case shrinks to the smallest size that still fails.
 */
import fc from 'fast-check'
import { strToU8, zipSync } from 'fflate'
import { base64, DOCX, EPUB, handZip, makeDocx, makeEpub, makeOdf, makeXlsx, members, ODT, XLSX } from '../helpers/office.js'

/** How large the biggest hostile inputs get (the bounded test uses less than the bench). */
export interface HostileScale {
  /** Longest hostile string, in UTF-16 units (~200 KB by default). */
  hugeChars: number
  /** Most elements of a flat or nested HTML structure. */
  tags: number
  /** Deepest nesting of JSON and Markdown structures. */
  depth: number
  /** Most keys of a hostile JSON object. */
  keys: number
}

export const FULL_SCALE: HostileScale = { hugeChars: 200_000, tags: 10_000, depth: 1_000, keys: 100_000 }

/** Code points and sequences that break naive text handling. */
export const NASTY_PIECES: readonly string[] = [
  '\u0000', '\u0001', '\u001b[31m', '\u007f', '\u0085', '\u2028', '\u2029', '\r\n', '\r', '\t', '\f', '\v',
  '\ud800', '\udfff', '\udc00\ud800', 'a\ud83d', '\ud83dz',
  '\u202e', '\u202d', '\u200f', '\u200e', '\u2066', '\u2067', '\u2069', '\u061c',
  '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u034f',
  '😀', '👩‍👩‍👧‍👦', '🇪🇸', '👍🏽', '🏳️‍🌈', '\ufe0f', '\u20e3',
  'e\u0301', 'Z\u0351\u0362\u0334\u0335\u0336\u0337\u0338',
  'مرحبا بالعالم', 'שלום עולם', '你好世界', 'こんにちは', '안녕하세요', 'Привет', 'Γειά σου', 'नमस्ते',
  '{name}', '{{name}}', '{0}', '%s', '%1$s', '%(name)s', '<0>x</0>', '</0>', '{', '}}', '%', '$&', '$1', '\\',
  '<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', '&amp;', '&#0;', '&#x110000;', '&nosuchentity;',
  '../../etc/passwd', '$' + '{jndi:ldap://x}', '{{7*7}}', '(a+)+$', '.*.*.*=.*', '[', ']', '(', '\\u0000',
  '__proto__', 'constructor', 'toString', 'NaN', '-0', '1e309', 'null', 'true', 'und', 'auto', 'x-'
]

/** A short string of nasty pieces and ordinary words. */
export const nastyString: fc.Arbitrary<string> = fc.array(
  fc.oneof({ arbitrary: fc.constantFrom(...NASTY_PIECES), weight: 3 }, { arbitrary: fc.constantFrom('hello', 'world', 'casa', ' ', 'the', '.'), weight: 1 }),
  { minLength: 1, maxLength: 12 }
).map(parts => parts.join(''))

/** `unit` repeated to about `chars` UTF-16 units. */
function repeatTo (unit: string, chars: number): string {
  return unit.repeat(Math.max(1, Math.ceil(chars / unit.length)))
}

/** Huge and strange strings for any string field. */
export function hostileString (scale: HostileScale = FULL_SCALE): fc.Arbitrary<string> {
  const size = fc.integer({ min: 1, max: scale.hugeChars })
  return fc.oneof(
    { arbitrary: nastyString, weight: 4 },
    { arbitrary: fc.tuple(fc.constantFrom('a', 'word ', 'Hello world. ', '😀', '\u0000', '\ud800', '\u200b', 'é', 'مرحبا '), size).map(([unit, n]) => repeatTo(unit, n)), weight: 2 },
    { arbitrary: fc.tuple(nastyString, fc.integer({ min: 1, max: 5_000 })).map(([s, n]) => s.repeat(n)), weight: 1 },
    // one base letter under thousands of combining marks
    { arbitrary: fc.integer({ min: 1, max: 20_000 }).map(n => 'a' + '\u0301'.repeat(n)), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 2 }
  )
}

/** A document value with its MIME type, and what makes it hostile (for counts and reports). */
export interface HostileDocument {
  mime_type: string
  value: unknown
  label: string
}

const doc = (mime: string, label: string) => (value: unknown): HostileDocument => ({ mime_type: mime, value, label })

/** Pathological HTML: unclosed tags, deep nesting, many attributes, many small elements. */
export function hostileHtml (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const html = 'text/html'
  const n = fc.integer({ min: 1, max: scale.tags })
  return fc.oneof(
    n.map(k => '<b><i><p><div><span><a href="x">'.repeat(k) + 'Hello world, how are you?').map(doc(html, 'html-unclosed')),
    n.map(k => '<b>'.repeat(k) + 'Hello world' + '</b>'.repeat(k)).map(doc(html, 'html-nested-b')),
    n.map(k => '<p ' + Array.from({ length: k }, (_, i) => `data-a${i}="v${i}" title="The house ${i}"`).join(' ') + '>The house is red.</p>').map(doc(html, 'html-attributes')),
    n.map(k => '<a href="#">the house</a> '.repeat(k)).map(doc(html, 'html-many-tags')),
    n.map(k => '<table><tr><td>'.repeat(k) + 'cell' + '</td></tr></table>'.repeat(k)).map(doc(html, 'html-nested-tables')),
    n.map(k => 'Hello &amp; world &#x1F600; &nosuch; &#0; &'.repeat(k)).map(doc(html, 'html-entities')),
    n.map(k => '<p>Hello<!-- a comment -->world</p><![CDATA[x]]><script>var a = "<p>not text</p>"</script>'.repeat(k) + '<!-- never closed <p>').map(doc(html, 'html-comments')),
    n.map(k => '<p translate="no">keep</p><code>x</code><p class="notranslate">keep</p><p title="Hello" alt="world">Hello</p>'.repeat(k) + '<p').map(doc(html, 'html-mixed')),
    n.map(k => '<svg><math><template><select><option>' + 'x<'.repeat(k) + '</svg>').map(doc(html, 'html-foreign'))
  )
}

/** A DeepL text with its markup options (`tag_handling`, `ignore_tags`), and what makes it hostile. */
export interface HostileMarkup {
  text: string
  tag_handling: 'html' | 'xml'
  ignore_tags?: string | string[]
  label: string
}

/**
 * DeepL markup made to cost (issue 32, item 1): text made only of kept elements (`<x/>` with
 * tag_handling xml, `<x></x>` with ignore_tags) up to three times the 10,000 a text may keep,
 * ignored elements holding self-closing ones, a megabyte of open elements read with xml and
 * ignore_tags, kept elements among words, stand-ins written by the client, XML's CDATA sections
 * (unclosed ones too) and entity references, and malformed markup.
 */
export function hostileMarkup (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileMarkup> {
  const n = fc.integer({ min: 1, max: scale.tags * 3 })
  const opened = fc.integer({ min: 1, max: scale.hugeChars })
  const markup = (label: string, tagHandling: 'html' | 'xml', ignore?: string | string[]) => (text: string): HostileMarkup =>
    ({ text, tag_handling: tagHandling, ...(ignore === undefined ? {} : { ignore_tags: ignore }), label })
  return fc.oneof(
    n.map(k => '<x/>'.repeat(k)).map(markup('markup-self-closing', 'xml')),
    n.map(k => '<x id="1"></x>'.repeat(k)).map(markup('markup-ignored', 'html', ['x'])),
    n.map(k => '<x><y/></x>'.repeat(k)).map(markup('markup-ignored-holding-self-closing', 'xml', 'x')),
    n.map(k => 'The house <ph id="1"/> is <x id="2"></x> red. '.repeat(k)).map(markup('markup-kept-among-words', 'xml', 'x,y')),
    opened.map(k => '<div>'.repeat(k)).map(markup('markup-open-elements', 'xml', ['x'])),
    opened.map(k => '<x>'.repeat(k) + '</x>'.repeat(k)).map(markup('markup-nested-ignored', 'html', 'x')),
    n.map(k => '<img data-deepl-keep="000000000000-0">'.repeat(k) + '<x/>').map(markup('markup-forged-stand-ins', 'xml', 'img')),
    n.map(k => '<![CDATA[ > '.repeat(k) + '<p>a &x;</p>'.repeat(k) + '<![CDATA[]]>').map(markup('markup-cdata-and-entities', 'xml', 'p')),
    fc.constantFrom('<x/', '<x></x', '<x/><x>never closed', '</x><x/>', '<x a="/>">b</x>', '<![CDATA[<x/>]]><x/>', '<!-- <x/> --><x/>', '<template><x/></template>', '<x/>&nbsp;<x>&nbsp;</x>',
      '<![CDATA[ a > <x>', '<svg><![CDATA[<x/>]]>&x;</svg>', '<title>&x;<![CDATA[a>b]]></title>', '<x>&x;<![CDATA[ ]]></x> &x; &amp;')
      .map(markup('markup-malformed', 'xml', ['x', 'template']))
  )
}

/** Pathological Markdown: deep lists and quotes, long link chains, backtick and emphasis runs. */
export function hostileMarkdown (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const md = 'text/markdown'
  const deep = fc.integer({ min: 1, max: scale.depth })
  const many = fc.integer({ min: 1, max: scale.tags })
  return fc.oneof(
    deep.map(k => '- '.repeat(k) + 'a deeply nested item').map(doc(md, 'md-deep-list')),
    deep.map(k => '> '.repeat(k) + 'a deeply nested quote').map(doc(md, 'md-deep-quote')),
    deep.map(k => Array.from({ length: k }, (_, i) => ' '.repeat(Math.min(i, 40) * 2) + '1. item ' + i).join('\n')).map(doc(md, 'md-indented-list')),
    many.map(k => Array.from({ length: k }, (_, i) => `[the house ${i}](http://example.com/${i} "title ${i}")`).join(' ')).map(doc(md, 'md-link-chain')),
    deep.map(k => '['.repeat(k) + 'the house' + '](u)'.repeat(k)).map(doc(md, 'md-nested-brackets')),
    many.map(k => Array.from({ length: k }, (_, i) => '`'.repeat(1 + (i % 40)) + 'x').join(' ')).map(doc(md, 'md-backtick-runs')),
    many.map(k => '*a _b '.repeat(k) + '**'.repeat(k)).map(doc(md, 'md-emphasis-runs')),
    many.map(k => '|a'.repeat(k) + '|\n' + '|-'.repeat(k) + '|\n' + '|the house'.repeat(k) + '|').map(doc(md, 'md-wide-table')),
    many.map(k => '<div>'.repeat(k) + '\n\nHello *world*\n').map(doc(md, 'md-html-blocks')),
    many.map(k => '---\ntitle: x\n---\n' + '# Heading\n\nText with {name} and %s and <0>tag</0>.\n\n```js\ncode\n```\n'.repeat(k)).map(doc(md, 'md-repeated'))
  )
}

/** `depth` levels of arrays or objects around a string. */
export function nested (depth: number, kind: 'array' | 'object', leaf: unknown = 'the house'): unknown {
  let value: unknown = leaf
  for (let i = 0; i < depth; i++) value = kind === 'array' ? [value] : { k: value }
  return value
}

/** An object of `keys` keys (short base-36 names; every tenth value a string, the rest numbers). */
export function manyKeys (keys: number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < keys; i++) out[i.toString(36)] = i % 10 === 0 ? 'a' : 1
  return out
}

/** Pathological JSON documents: very many keys, deep nesting, as values and as strings holding JSON. */
export function hostileJson (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const json = 'application/json'
  const deep = fc.integer({ min: 1, max: scale.depth })
  const keys = fc.integer({ min: 1, max: scale.keys })
  return fc.oneof(
    keys.map(k => manyKeys(k)).map(doc(json, 'json-many-keys')),
    keys.map(k => JSON.stringify(manyKeys(Math.min(k, 50_000)))).map(doc(json, 'json-many-keys-string')),
    fc.tuple(deep, fc.constantFrom<'array' | 'object'>('array', 'object')).map(([d, kind]) => nested(d, kind)).map(doc(json, 'json-deep')),
    fc.tuple(deep, fc.constantFrom<'array' | 'object'>('array', 'object')).map(([d, kind]) => JSON.stringify(nested(d, kind))).map(doc(json, 'json-deep-string')),
    keys.map(k => Array.from({ length: Math.min(k, 50_000) }, (_, i) => i % 2 === 0 ? 'the house' : i)).map(doc(json, 'json-long-array')),
    fc.constantFrom('{', '[1,2', '{"a":}', '', 'null', '1e999', '"just a string"', '{"__proto__":{"x":1}}', '\ufeff{}').map(doc(json, 'json-string-malformed')),
    nastyString.map(s => ({ [s]: s, nested: { [s]: [s, null, true, -0, 1e308] } })).map(doc(json, 'json-nasty-keys'))
  )
}

/** Hostile plain text: huge, strange, or both. */
export function hostilePlain (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  return hostileString(scale).map(doc('text/plain', 'plain-hostile'))
}

/** Hostile subtitles: very many cues, very many lines in one cue, nasty cue text, broken blocks, runs of tags. */
export function hostileSubtitles (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const many = fc.integer({ min: 1, max: scale.tags })
  const kind = fc.constantFrom<'srt' | 'vtt'>('srt', 'vtt')
  const mime = (k: 'srt' | 'vtt'): string => k === 'srt' ? 'application/x-subrip' : 'text/vtt'
  const time = (k: 'srt' | 'vtt', i: number): string => {
    const s = (n: number): string => `00:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}${k === 'srt' ? ',' : '.'}000`
    return `${s(i)} --> ${s(i + 1)}`
  }
  const file = (k: 'srt' | 'vtt', cues: string[]): string =>
    (k === 'vtt' ? 'WEBVTT\n\n' : '') + cues.map((text, i) => `${i + 1}\n${time(k, i)}\n${text}`).join('\n\n') + '\n'
  return fc.oneof(
    fc.tuple(kind, many).map(([k, n]) => ({ mime_type: mime(k), value: file(k, Array.from({ length: n }, (_, i) => `The house ${i} is red.\nThe car is <i>new</i>.`)), label: `${k}-many-cues` })),
    fc.tuple(kind, many).map(([k, n]) => ({ mime_type: mime(k), value: file(k, [Array.from({ length: n }, () => 'the house is').join('\n')]), label: `${k}-many-lines` })),
    fc.tuple(kind, many).map(([k, n]) => ({ mime_type: mime(k), value: file(k, ['<i>'.repeat(n) + 'the house' + '</b>'.repeat(n) + '{\\an8}'.repeat(Math.min(n, 100))]), label: `${k}-tags` })),
    fc.tuple(kind, fc.array(nastyString, { minLength: 1, maxLength: 20 })).map(([k, texts]) => ({ mime_type: mime(k), value: file(k, texts), label: `${k}-nasty` })),
    fc.tuple(kind, fc.constantFrom('', '\n\n\n', 'WEBVTT', '1\n', '1\n00:00:01,000 --> \nx', 'WEBVTT\n\nNOTE', '-->\n-->', '00:00.000 --> 00:01.000\n-->', '\ufeff1\r00:00:01,000 --> 00:00:02,000\rhi\r'))
      .map(([k, v]) => ({ mime_type: mime(k), value: v, label: `${k}-malformed` }))
  )
}

/** Hostile gettext PO files: very many entries, long plural lists, nasty msgids, broken syntax. */
export function hostileGettext (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const mime = 'text/x-gettext-translation'
  const many = fc.integer({ min: 1, max: scale.tags })
  const quote = (s: string): string => JSON.stringify(s).replace(/\\u([0-9a-f]{4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
  return fc.oneof(
    many.map(n => Array.from({ length: n }, (_, i) => `#, c-format\nmsgid "The house %d is red. ${i}"\nmsgid_plural "The houses %d are red. ${i}"\nmsgstr[0] ""\nmsgstr[1] ""\n`).join('\n')).map(doc(mime, 'po-many-entries')),
    many.map(n => `msgid "a house"\nmsgid_plural "houses"\n${Array.from({ length: Math.min(n, 1000) }, (_, i) => `msgstr[${i}] ""`).join('\n')}\n`).map(doc(mime, 'po-many-forms')),
    fc.array(nastyString, { minLength: 1, maxLength: 20 }).map(texts => texts.map((t, i) => `msgctxt "${i}"\nmsgid ${quote(t)}\nmsgstr ""\n`).join('\n')).map(doc(mime, 'po-nasty')),
    fc.constantFrom('', 'msgid', 'msgid "', 'msgid "a"\nmsgstr[99999999999] "b"\n', '"a"', 'msgid "a"\nmsgstr "b"\n\nmsgid "a"\nmsgstr "b"\n', '#, fuzzy\nmsgid ""\nmsgstr ""\n', 'msgid "\\"\nmsgstr ""').map(doc(mime, 'po-malformed'))
  )
}

/** Hostile XLIFF 1.2 and 2.0 files: very many units, deep inline codes, nasty sources, broken XML. */
export function hostileXliff (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const mime = 'application/xliff+xml'
  const many = fc.integer({ min: 1, max: scale.tags })
  const allowed = (c: string): boolean => { const n = c.codePointAt(0)!; return (n >= 0x20 || n === 9 || n === 10 || n === 13) && (n < 0xd800 || n > 0xdfff) && n !== 0xfffe && n !== 0xffff }
  const xml = (s: string): string => Array.from(s).filter(allowed).join('').replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
  const v1 = (units: string): string => `<?xml version="1.0"?>\n<xliff version="1.2"><file source-language="en" datatype="plaintext" original="f"><body>\n${units}</body></file></xliff>\n`
  const v2 = (units: string): string => `<xliff version="2.0" srcLang="en"><file id="f">\n${units}</file></xliff>\n`
  return fc.oneof(
    many.map(n => v1(Array.from({ length: n }, (_, i) => `<trans-unit id="${i}"><source>The house {${i}} is <g id="1">red</g>.<x id="2"/> It <bpt id="3">&lt;b&gt;</bpt>is<ept id="3">&lt;/b&gt;</ept> big.</source>${i % 2 === 0 ? '<target/>' : ''}</trans-unit>\n`).join(''))).map(doc(mime, 'xliff12-many-units')),
    many.map(n => v2(Array.from({ length: n }, (_, i) => `<unit id="u${i}"><segment><source>The <pc id="1">house</pc> ${i}<ph id="2"/> is <sc id="3"/>red<ec startRef="3"/>.</source></segment></unit>\n`).join(''))).map(doc(mime, 'xliff20-many-units')),
    many.map(n => v2(`<unit id="deep"><segment><source>${'<pc id="p"><mrk id="m">'.repeat(Math.min(n, 2000))}house${'</mrk></pc>'.repeat(Math.min(n, 2000))}</source></segment></unit>`)).map(doc(mime, 'xliff-deep-codes')),
    fc.array(nastyString, { minLength: 1, maxLength: 20 }).map(texts => v1(texts.map((t, i) => `<trans-unit id="n${i}"><source>${xml(t)}</source><target><![CDATA[${t.replaceAll(']]>', '')}]]></target></trans-unit>\n`).join(''))).map(doc(mime, 'xliff-nasty')),
    fc.constantFrom('', '<xliff>', '<xliff version="1.2"><file></xliff>', '<html/>', '<xliff version="9"/>', '<xliff version="1.2"><file><body><trans-unit id="1"><source>&nbsp;</source></trans-unit></body></file></xliff>',
      '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><xliff version="1.2"><file><body><trans-unit id="1"><source>&b;</source></trans-unit></body></file></xliff>',
      '<xliff version="2.0"><file><unit><segment><source><pc>open</source></segment></unit></file></xliff>', '<xliff version="1.2"><file><body><trans-unit id="1"><source>a</source><target>b</target><target>c</target></trans-unit></body></file></xliff>',
      '<xliff version="2.0"><file><unit><segment><target>no source</target></segment></unit></file></xliff>').map(doc(mime, 'xliff-malformed'))
  )
}

/** Hostile Android strings.xml files: very many strings, deep inline markup, many plural items, nasty text, broken XML. */
export function hostileAndroid (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const mime = 'application/vnd.android.strings+xml'
  const many = fc.integer({ min: 1, max: scale.tags })
  // what XML may hold: no C0 controls but tab and line breaks, no lone surrogates, no U+FFFE/U+FFFF
  const allowed = (c: string): boolean => { const n = c.codePointAt(0)!; return (n >= 0x20 || n === 9 || n === 10 || n === 13) && (n < 0xd800 || n > 0xdfff) && n !== 0xfffe && n !== 0xffff }
  const xml = (s: string): string => Array.from(s).filter(allowed).join('').replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
  const file = (body: string): string => `<?xml version="1.0" encoding="utf-8"?>\n<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">\n${body}</resources>\n`
  return fc.oneof(
    many.map(n => file(Array.from({ length: n }, (_, i) => `  <string name="s${i}">The house %${i}$s is <b>red</b>.\\n Don\\'t <xliff:g id="x">%d</xliff:g> go.</string>\n`).join(''))).map(doc(mime, 'android-many-strings')),
    many.map(n => file(`  <string name="deep">${'<b><i>'.repeat(Math.min(n, 2000))}house${'</i></b>'.repeat(Math.min(n, 2000))}</string>\n`)).map(doc(mime, 'android-deep-markup')),
    many.map(n => file(`  <plurals name="p">\n${Array.from({ length: Math.min(n, 1000) }, (_, i) => `    <item quantity="${['zero', 'one', 'two', 'few', 'many', 'other'][i % 6]}">%d house ${i}</item>\n`).join('')}  </plurals>\n`)).map(doc(mime, 'android-many-plural-items')),
    fc.array(nastyString, { minLength: 1, maxLength: 20 }).map(texts => file(texts.map((t, i) => `  <string name="n${i}">${xml(t)}</string>\n  <string name="c${i}"><![CDATA[${t.replaceAll(']]>', '')}]]></string>\n`).join(''))).map(doc(mime, 'android-nasty')),
    fc.constantFrom('', '<resources>', '<resources><string name="a">x</strin></resources>', '<html/>', '<resources><string>&nbsp;</string></resources>', '<resources><plurals name="p"><item>x</item></plurals></resources>',
      '<resources><plurals name="p"><item quantity="one">a</item><item quantity="one">b</item></plurals></resources>', '<resources><string name="a">\\</string></resources>', '<resources><string name="a">%</string></resources>',
      '<!DOCTYPE r [<!ENTITY e "x">]><resources><string name="a">&e;</string></resources>', '<resources><string name="a"><xliff:g>never closed</string></resources>').map(doc(mime, 'android-malformed'))
  )
}

/**
 * Hostile office files and books (the file in base64): DOCX with very many paragraphs, deep
 * hyperlinks, nasty text; XLSX with very many shared strings, ODT with spans nested 2,000 deep,
 * EPUB with nasty chapters, a package document outside the book, an NCX declaring entities,
 * hrefs out of the book; and hostile containers: zip bombs (by declared size, by ratio, by a member that lies about its
 * size), too many members, names with .. or absolute paths, a name twice, an entity expansion,
 * macros, truncated or random bytes, and values that are not base64.
 */
export function hostileOffice (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const many = fc.integer({ min: 1, max: scale.tags })
  const allowed = (c: string): boolean => { const n = c.codePointAt(0)!; return (n >= 0x20 || n === 9 || n === 10 || n === 13) && (n < 0xd800 || n > 0xdfff) && n !== 0xfffe && n !== 0xffff }
  const xml = (s: string): string => Array.from(s).filter(allowed).join('').replace(/[&<>"']/g, c => `&#${c.charCodeAt(0)};`)
  const docx = (label: string) => (body: string): HostileDocument => ({ mime_type: DOCX, value: base64(makeDocx(body)), label })
  const file = (label: string) => (bytes: Uint8Array): HostileDocument => ({ mime_type: DOCX, value: base64(bytes), label })
  const plain = members(base64(makeDocx('<w:p><w:r><w:t>The house.</w:t></w:r></w:p>')))
  const withPart = (name: string, text: string): Uint8Array => zipSync({ ...plain, [name]: strToU8(text) })
  return fc.oneof(
    many.map(n => Array.from({ length: n }, (_, i) => `<w:p><w:r><w:t xml:space="preserve">The house ${i} is </w:t></w:r><w:r><w:rPr><w:b/></w:rPr><w:t>red</w:t></w:r><w:r><w:tab/><w:t>. {n} It is big.</w:t></w:r></w:p>`).join('')).map(docx('docx-many-paragraphs')),
    many.map(n => `<w:p>${'<w:hyperlink r:id="r"><w:smartTag>'.repeat(Math.min(n, 2000))}<w:r><w:t>house</w:t></w:r>${'</w:smartTag></w:hyperlink>'.repeat(Math.min(n, 2000))}</w:p>`).map(docx('docx-deep-links')),
    many.map(n => `<w:p>${Array.from({ length: Math.min(n, 5000) }, (_, i) => `<w:r>${i % 2 === 0 ? '<w:rPr><w:i/></w:rPr>' : ''}<w:t>w${i} </w:t></w:r>`).join('')}</w:p>`).map(docx('docx-many-runs')),
    fc.array(nastyString, { minLength: 1, maxLength: 20 }).map(texts => texts.map(t => `<w:p><w:r><w:t xml:space="preserve">${xml(t)}</w:t></w:r></w:p>`).join('')).map(docx('docx-nasty')),
    fc.constantFrom(
      handZip([{ name: 'word/document.xml', data: new Uint8Array(4 * 1024 * 1024) }]),
      handZip([{ name: 'word/document.xml', data: new Uint8Array(8 * 1024 * 1024), declared: 100 }]),
      handZip([{ name: 'big.bin', data: new Uint8Array(0), declared: 0xfffffff0 }]),
      handZip(Array.from({ length: 2001 }, (_, i) => ({ name: `m${i}`, data: new Uint8Array(0), stored: true }))),
      handZip([{ name: '../../etc/passwd', data: strToU8('x') }]),
      handZip([{ name: '/abs.xml', data: strToU8('x') }]),
      handZip([{ name: 'word\\document.xml', data: strToU8('x') }]),
      handZip([{ name: '[Content_Types].xml', data: strToU8('<Types/>') }, { name: '[Content_Types].xml', data: strToU8('<Types/>') }]),
      withPart('word/document.xml', '<!DOCTYPE d [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]><w:document xmlns:w="urn:w"><w:body><w:p><w:r><w:t>&c;&c;&c;</w:t></w:r></w:p></w:body></w:document>'),
      withPart('word/document.xml', '<w:document xmlns:w="urn:w"><w:body><w:p><w:r><w:t>never closed</w:body></w:document>'),
      withPart('word/vbaProject.bin', 'macro'),
      makeDocx('<w:p><w:r><w:t>x</w:t></w:r></w:p>').subarray(0, 300),
      zipSync({ 'a.txt': strToU8('no content types') }),
      new Uint8Array(64).map((_, i) => (i * 97 + 13) % 256)
    ).map(file('docx-hostile-container')),
    fc.constantFrom('', '%%%%', 'UEsDBA', 'not base64 at all', 'A'.repeat(1001)).map(value => ({ mime_type: DOCX, value, label: 'docx-not-base64' })),
    many.map(n => ({ mime_type: XLSX, value: base64(makeXlsx('S', Array.from({ length: n }, (_, i) => i % 2 === 0 ? `<t>The house ${i}</t>` : `<r><t>The </t></r><r><rPr><b/></rPr><t>red ${i}</t></r>`), '')), label: 'xlsx-many-strings' })),
    many.map(n => ({ mime_type: ODT, value: base64(makeOdf(ODT, `<office:text><text:p>${'<text:span>'.repeat(Math.min(n, 2000))}house${'</text:span>'.repeat(Math.min(n, 2000))}</text:p></office:text>`)), label: 'odt-deep-spans' })),
    fc.array(nastyString, { minLength: 1, maxLength: 10 }).map(texts => ({ mime_type: EPUB, value: base64(makeEpub(texts.map(t => `<p>${xml(t)}</p>`))), label: 'epub-nasty' })),
    fc.constantFrom(
      zipSync({ ...members(base64(makeEpub(['<p>x</p>']))), 'META-INF/container.xml': strToU8('<container xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="../../etc/passwd"/></rootfiles></container>') }),
      zipSync({ ...members(base64(makeEpub(['<p>x</p>']))), 'OEBPS/toc.ncx': strToU8('<!DOCTYPE ncx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/"><navMap><navPoint><navLabel><text>&b;</text></navLabel></navPoint></navMap></ncx>') }),
      zipSync({ ...members(base64(makeEpub(['<p>x</p>']))), 'OEBPS/content.opf': strToU8('<package xmlns="http://www.idpf.org/2007/opf"><manifest><item href="../../../x.xhtml" media-type="application/xhtml+xml"/><item href="%ZZ" media-type="application/xhtml+xml"/></manifest></package>') }),
      makeOdf(ODT, '<office:text><text:p>unclosed</office:text>'),
      zipSync({ ...members(base64(makeOdf(ODT, ''))), mimetype: strToU8('application/epub+zip') })
    ).map(bytes => ({ mime_type: EPUB, value: base64(bytes), label: 'epub-odf-hostile' }))
  )
}

/** Any hostile document, of any MIME type (sometimes an odd spelling or one the service does not know). */
export function hostileDocument (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileDocument> {
  const odd = fc.tuple(
    fc.oneof(hostileHtml(scale), hostileMarkdown(scale), hostileJson(scale), hostilePlain(scale), hostileSubtitles(scale), hostileGettext(scale), hostileXliff(scale), hostileAndroid(scale), hostileOffice(scale)),
    fc.constantFrom('TEXT/HTML; charset=utf-8', 'text/markdown;charset=latin1', 'application/json ; x=y', 'text/xml', 'image/png', '', ';', 'text/', '*/*')
  ).map(([d, mime]) => ({ ...d, mime_type: d.mime_type === 'text/plain' ? mime : d.mime_type, label: d.label + '+mime' }))
  const mimes = fc.constantFrom('text/plain', 'text/html', 'text/markdown', 'application/json', 'application/x-subrip', 'text/vtt', 'text/x-gettext-translation', 'application/xliff+xml', 'application/vnd.android.strings+xml', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/epub+zip', 'application/vnd.oasis.opendocument.text')
  // JSON values under every MIME type (their string leaves are read as that type)
  const jsonAnyMime = fc.tuple(hostileJson(scale), mimes)
    .map(([d, mime]) => ({ ...d, mime_type: mime, label: `${d.label}@${mime.split('/')[1]}` }))
  // hostile HTML and Markdown as the string leaves of a JSON value
  const markupInJson = fc.tuple(fc.oneof(hostileHtml(scale), hostileMarkdown(scale)), fc.integer({ min: 1, max: 3 }))
    .map(([d, copies]) => ({ mime_type: d.mime_type, value: { items: Array.from({ length: copies }, () => d.value), title: 'the house' }, label: `${d.label}-in-json` }))
  return fc.oneof(
    { arbitrary: hostileHtml(scale), weight: 3 },
    { arbitrary: hostileMarkdown(scale), weight: 3 },
    { arbitrary: hostileJson(scale), weight: 2 },
    { arbitrary: jsonAnyMime, weight: 2 },
    { arbitrary: markupInJson, weight: 1 },
    { arbitrary: hostilePlain(scale), weight: 2 },
    { arbitrary: hostileSubtitles(scale), weight: 2 },
    { arbitrary: hostileGettext(scale), weight: 2 },
    { arbitrary: hostileXliff(scale), weight: 2 },
    { arbitrary: hostileAndroid(scale), weight: 2 },
    { arbitrary: hostileOffice(scale), weight: 2 },
    { arbitrary: odd, weight: 1 }
  )
}

/** A request body that is a form (the drop-in APIs take url-encoded and multipart forms), and what makes it hostile. */
export interface HostileForm {
  contentType: string
  body: string
  label: string
}

/** Fields a drop-in API reads, so that a hostile form may also pass its schema and reach the key check or the handler. */
const FORM_FIELDS: ReadonlyArray<[string, string]> = [['q', 'The house is red.'], ['source', 'en'], ['target', 'es'], ['text', 'The house'], ['target_lang', 'ES'], ['langpair', 'eng|spa']]

const BOUNDARY = '----WebKitFormBoundaryFuzz7MA4YWxkTrZu0gW'

/** One multipart part (a field, or a file part when `file` names one). */
const part = (name: string, value: string, file?: string): string =>
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file === undefined ? '' : `; filename="${file}"\r\nContent-Type: text/plain`}\r\n\r\n${value}\r\n`

/**
 * Hostile forms: very many fields (the probe's 120,000-field forms), a field repeated past any
 * array bound, one huge field, broken percent-encoding and prototype names; multipart bodies with
 * very many parts, a huge part, file parts, no closing delimiter, a boundary that is not the
 * header's, endless header lines and delimiter-like noise.
 */
export function hostileForm (scale: HostileScale = FULL_SCALE): fc.Arbitrary<HostileForm> {
  const urlencoded = 'application/x-www-form-urlencoded'
  const multipart = `multipart/form-data; boundary=${BOUNDARY}`
  const known = FORM_FIELDS.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')
  const knownParts = FORM_FIELDS.map(([k, v]) => part(k, v)).join('')
  const fields = fc.integer({ min: 1, max: Math.max(scale.keys, 120_000) })
  const huge = fc.integer({ min: 1, max: scale.hugeChars * 4 })
  const form = (contentType: string, label: string) => (body: string): HostileForm => ({ contentType, body, label })
  return fc.oneof(
    fields.map(n => known + '&' + Array.from({ length: n }, (_, i) => `f${i.toString(36)}=v`).join('&')).map(form(urlencoded, 'form-many-fields')),
    fields.map(n => known + '&' + 'q=a&'.repeat(n)).map(form(urlencoded, 'form-repeated-q')),
    fields.map(n => '&'.repeat(n) + known).map(form(urlencoded, 'form-empty-fields')),
    huge.map(n => known + '&q=' + 'word+'.repeat(Math.ceil(n / 5))).map(form(urlencoded, 'form-huge-field')),
    fc.constantFrom('q=%', 'q=%zz&target=es', 'q=%C3&target=%FF%FE', '__proto__[x]=1&constructor[prototype][y]=2&q=x', '=&==&=x&x=', 'q', 'a[b][c][d]=1', '%00=%00', 'q=' + '%'.repeat(10_000))
      .map(s => known + '&' + s).map(form(urlencoded, 'form-nasty')),
    fields.map(n => knownParts + Array.from({ length: Math.min(n, 30_000) }, (_, i) => part(`f${i}`, 'v')).join('') + `--${BOUNDARY}--\r\n`).map(form(multipart, 'multipart-many-parts')),
    huge.map(n => knownParts + part('q', 'word '.repeat(Math.ceil(n / 5))) + `--${BOUNDARY}--\r\n`).map(form(multipart, 'multipart-huge-part')),
    fc.constantFrom(
      knownParts + part('q', 'hello', 'hello.txt') + `--${BOUNDARY}--\r\n`,
      knownParts,
      part('q', 'x').replace(BOUNDARY, 'another-boundary') + '--another-boundary--\r\n',
      `--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--${BOUNDARY}--\r\n`,
      `--${BOUNDARY}\r\nX-Long: ${'h'.repeat(100_000)}\r\nContent-Disposition: form-data; name="q"\r\n\r\nx\r\n--${BOUNDARY}--\r\n`,
      knownParts + part('q', `\r\n--${BOUNDARY.slice(0, -1)}\r\n--`.repeat(20_000)) + `--${BOUNDARY}--\r\n`,
      knownParts + part('__proto__', 'x') + part('constructor', 'y') + `--${BOUNDARY}--\r\n`,
      'not multipart at all'
    ).map(form(multipart, 'multipart-malformed')),
    fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary="' + 'b'.repeat(200) + '"', 'multipart/mixed; boundary=' + BOUNDARY)
      .map(contentType => ({ contentType, body: knownParts + `--${BOUNDARY}--\r\n`, label: 'multipart-bad-header' }))
  )
}
