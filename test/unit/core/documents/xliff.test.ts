import { describe, expect, it } from 'vitest'
import xliff from 'xliff'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { prepareForTranslation } from '../../../../src/core/documents/prepare.js'
import { ValidationError } from '../../../../src/errors.js'
import { reverseWords, upper } from './engines.js'

const MIME = 'application/xliff+xml'

const XLIFF12 = `<?xml version="1.0" encoding="UTF-8"?>
<!-- exported by a tool -->
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2" xmlns:x="urn:example:x">
  <file source-language="en" datatype="plaintext" original="app.properties">
    <header><x:tool name='demo' /></header>
    <body>
      <trans-unit id="greeting" resname="greeting">
        <source>The <g id="1">red</g> car is here. It has <x id="2"/> wheels &amp; a <bpt id="3">&lt;b&gt;</bpt>big<ept id="3">&lt;/b&gt;</ept> door.</source>
        <note>Shown on the home page.</note>
      </trans-unit>
      <trans-unit id="old">
        <source>The house is big.</source>
        <target state="needs-translation">Old text</target>
        <alt-trans><source>The house is big.</source><target>La casa es grande.</target></alt-trans>
      </trans-unit>
      <trans-unit id="empty"><source>Open the door.</source><target/></trans-unit>
      <trans-unit id="no" translate="no"><source>Keep me.</source></trans-unit>
      <group id="g" translate="no">
        <trans-unit id="inherited"><source>Keep me too.</source></trans-unit>
      </group>
      <trans-unit id="final"><source>Done.</source><target state="final">Hecho.</target></trans-unit>
      <trans-unit id="signed"><source>Done!</source><target state="signed-off">¡Hecho!</target></trans-unit>
      <trans-unit id="approved" approved="yes"><source>Done?</source><target>¿Hecho?</target></trans-unit>
      <trans-unit id="marks"><source>Say <mrk mtype="term">hello</mrk> to <mrk mtype="protected">ACME Corp</mrk> and <ph id="4">{0}</ph>.</source></trans-unit>
    </body>
  </file>
</xliff>
`

const XLIFF20 = `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en">
 <file id="f1">
  <notes><note>Menu strings</note></notes>
  <unit id="u1">
   <segment id="s1">
    <source>Press <pc id="1">Save</pc> now.</source>
   </segment>
   <ignorable><source> </source></ignorable>
   <segment id="s2">
    <source>Then <sc id="2"/>close<ec startRef="2"/> the <mrk id="m1" translate="no">ACME</mrk> window<ph id="3"/>.</source>
    <target>Old</target>
   </segment>
  </unit>
  <unit id="u2" translate="no"><segment><source>Keep me.</source></segment></unit>
  <unit id="u3"><segment state="final"><source>Done.</source><target>Fait.</target></segment></unit>
  <unit id="u4"><segment state="reviewed"><source>Done!</source><target>Fait !</target></segment></unit>
 </file>
</xliff>
`

const through = (source: string, target: string | undefined, engine = upper): string => {
  const doc = segmentDocument(source, MIME)
  return doc.rebuild(doc.segments.map(engine), target) as string
}

const flat = (inline: unknown): string => typeof inline === 'string'
  ? inline
  : Array.isArray(inline) ? inline.map(flat).join('') : Object.values(inline as Record<string, { contents?: unknown }>).map(v => flat(v.contents ?? '')).join('')

describe('application/xliff+xml 1.2', () => {
  it('sends the sources of units to translate, sentence by sentence, with inline codes as tags', () => {
    expect(segmentDocument(XLIFF12, MIME).segments).toEqual([
      'The <g id="1">red</g> car is here.',
      'It has <x id="1"/> wheels &amp; a <x id="2"/>big<x id="3"/> door.',
      'The house is big.',
      'Open the door.',
      'Say <g id="1">hello</g> to <x id="2"/> and <x id="3"/>.'
    ])
  })

  it('writes the targets, the target language and the state; reads back with the xliff package', async () => {
    const out = through(XLIFF12, 'es')
    const js = await xliff.xliff12ToJs(out)
    expect(js.targetLanguage).toBe('es')
    const units = js.resources['app.properties']!
    expect(flat(units.greeting!.target)).toBe('THE RED CAR IS HERE. IT HAS  WHEELS & A <b>BIG</b> DOOR.')
    expect(flat(units.old!.target)).toBe('THE HOUSE IS BIG.')
    expect(flat(units.empty!.target)).toBe('OPEN THE DOOR.')
    expect(units.no!.target).toBeUndefined()
    expect(out).toContain('<trans-unit id="inherited"><source>Keep me too.</source></trans-unit>')
    expect(flat(units.final!.target)).toBe('Hecho.')
    expect(flat(units.signed!.target)).toBe('¡Hecho!')
    expect(flat(units.approved!.target)).toBe('¿Hecho?')
    expect(flat(units.marks!.target)).toContain('SAY HELLO TO ')
    // the target is created after its source, on the source's indentation; codes are the source's
    expect(out).toContain('</source>\n        <target state="translated">THE <g id="1">RED</g> CAR IS HERE. IT HAS <x id="2"/> WHEELS &amp; A <bpt id="3">&lt;b&gt;</bpt>BIG<ept id="3">&lt;/b&gt;</ept> DOOR.</target>\n        <note>')
    expect(out).toContain('<target state="translated">THE HOUSE IS BIG.</target>\n        <alt-trans><source>The house is big.</source><target>La casa es grande.</target></alt-trans>')
    expect(out).toContain('<target state="translated">OPEN THE DOOR.</target></trans-unit>')
    expect(out).toContain('<mrk mtype="protected">ACME Corp</mrk> AND <ph id="4">{0}</ph>.')
    expect(out).toContain('<file source-language="en" datatype="plaintext" original="app.properties" target-language="es">')
    // what lies outside the targets is kept byte for byte
    const withoutTargets = (text: string): string => text.replace(/\s*<target[^>]*>.*?<\/target>|<target\/>/g, '').replace(/ target-language="es"/, '')
    expect(withoutTargets(out)).toBe(withoutTargets(XLIFF12))
  })

  it('an engine that moves the words keeps the file well-formed', async () => {
    const out = through(XLIFF12, 'es', reverseWords)
    const js = await xliff.xliff12ToJs(out)
    expect(flat(js.resources['app.properties']!.greeting!.target)).toMatch(/red/)
  })

  it('replaces an existing target-language and works with a prefix and a single-quoted attribute', () => {
    const source = "<xlf:xliff version='1.2' xmlns:xlf='urn:oasis:names:tc:xliff:document:1.2'><xlf:file target-language='fr' original='a' source-language='en' datatype='plaintext'><xlf:body><xlf:trans-unit id='1'><xlf:source>Hello.</xlf:source></xlf:trans-unit></xlf:body></xlf:file></xlf:xliff>"
    expect(through(source, 'pt-BR')).toBe("<xlf:xliff version='1.2' xmlns:xlf='urn:oasis:names:tc:xliff:document:1.2'><xlf:file target-language=\"pt-BR\" original='a' source-language='en' datatype='plaintext'><xlf:body><xlf:trans-unit id='1'><xlf:source>Hello.</xlf:source><xlf:target state=\"translated\">HELLO.</xlf:target></xlf:trans-unit></xlf:body></xlf:file></xlf:xliff>")
  })
})

describe('application/xliff+xml: other namespaces', () => {
  it('reads only XLIFF\'s elements (its namespace, or none): another namespace\'s source and target in a unit come back as written', () => {
    const file = '<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" datatype="plaintext" original="x"><body>' +
      '<trans-unit id="1"><o:source xmlns:o="urn:other">Do not read.</o:source><source>The red car is fast.</source><o:target xmlns:o="urn:other">keep me</o:target></trans-unit></body></file></xliff>'
    const doc = segmentDocument(file, MIME)
    expect(doc.segments).toEqual(['The red car is fast.'])
    const out = doc.rebuild(doc.segments.map(upper), 'es') as string
    expect(out).toContain('<o:source xmlns:o="urn:other">Do not read.</o:source>')
    expect(out).toContain('<o:target xmlns:o="urn:other">keep me</o:target>')
    expect(out).toContain('<target state="translated">THE RED CAR IS FAST.</target>')
    // and the result reads back (a foreign target overwritten lost its namespace: saxes refused it)
    expect(() => segmentDocument(out, MIME)).not.toThrow()
  })
})

describe('application/xliff+xml 1.2 segmented sources', () => {
  it('translates a <seg-source> as segmented, the target after it keeping its mrk segments; a target\'s xml:lang is set', async () => {
    const source = '<xliff version="1.2"><file source-language="en" datatype="plaintext" original="f"><body>\n' +
      '<trans-unit id="1"><source>The car is red. The house is big.</source>' +
      '<seg-source><mrk mtype="seg" mid="1">The car is red.</mrk> <mrk mtype="seg" mid="2">The house is big.</mrk></seg-source></trans-unit>\n' +
      '<trans-unit id="2"><source>Open.</source><target xml:lang="de">Auf.</target></trans-unit>\n</body></file></xliff>'
    expect(segmentDocument(source, MIME).segments).toEqual(['The car is red.', 'The house is big.', 'Open.'])
    const out = through(source, 'es')
    expect(out).toContain('</seg-source><target state="translated"><mrk mtype="seg" mid="1">THE CAR IS RED.</mrk> <mrk mtype="seg" mid="2">THE HOUSE IS BIG.</mrk></target></trans-unit>')
    expect(out).toContain('<target xml:lang="es" state="translated">OPEN.</target>')
    expect(flat((await xliff.xliff12ToJs(out)).resources.f!['2']!.target)).toBe('OPEN.')
  })
})

describe('application/xliff+xml 2.0', () => {
  it('sends each segment\'s source; pc and mrk pairs, the rest tokens; final, reviewed and translate="no" left alone', () => {
    expect(segmentDocument(XLIFF20, MIME).segments).toEqual([
      'Press <g id="1">Save</g> now.',
      'Then <x id="1"/>close<x id="2"/> the <x id="3"/> window<x id="4"/>.'
    ])
  })

  it('writes targets, trgLang and the segment state; reads back with the xliff package', async () => {
    const out = through(XLIFF20, 'fr')
    const js = await xliff.xliff2js(out)
    expect(js.targetLanguage).toBe('fr')
    expect(out).toContain('<xliff version="2.0" xmlns="urn:oasis:names:tc:xliff:document:2.0" srcLang="en" trgLang="fr">')
    expect(out).toContain('<segment id="s1" state="translated">\n    <source>Press <pc id="1">Save</pc> now.</source>\n    <target>PRESS <pc id="1">SAVE</pc> NOW.</target>\n   </segment>')
    expect(out).toContain('<target>THEN <sc id="2"/>CLOSE<ec startRef="2"/> THE <mrk id="m1" translate="no">ACME</mrk> WINDOW<ph id="3"/>.</target>')
    expect(out).toContain('<ignorable><source> </source></ignorable>')
    expect(out).toContain('<unit id="u2" translate="no"><segment><source>Keep me.</source></segment></unit>')
    expect(out).toContain('<segment state="final"><source>Done.</source><target>Fait.</target></segment>')
    expect(out).toContain('<segment state="reviewed"><source>Done!</source><target>Fait !</target></segment>')
    expect(flat(js.resources.f1!.u3!.target)).toBe('Fait.')
  })
})

describe('application/xliff+xml without a target (same-language work)', () => {
  it('a file unchanged comes back byte for byte', () => {
    for (const source of [XLIFF12, XLIFF20]) {
      const doc = segmentDocument(source, MIME)
      expect(doc.rebuild(doc.segments)).toBe(source)
    }
  })

  it('writes a target only where the text changed, states and languages kept', () => {
    const prepared = prepareForTranslation(XLIFF12, MIME, { placeholders: true, rules: [{ text: 'house', substitution: 'home' }], caseSensitive: false })
    const out = prepared.finish(prepared.segments).value as string
    expect(out).toContain('<target state="needs-translation">The home is big.</target>')
    expect(out).not.toContain('target-language')
    expect(out).toContain('<trans-unit id="empty"><source>Open the door.</source><target/></trans-unit>')
  })
})

describe('application/xliff+xml final units (finished)', () => {
  it('source: the sources of final, signed-off, approved, reviewed units read too; their targets never written', () => {
    const doc = segmentDocument(XLIFF12, MIME, { finished: 'source' })
    expect(doc.segments).toEqual(expect.arrayContaining(['Done.', 'Done!', 'Done?']))
    expect(doc.segments).not.toContain('Keep me.')
    const out = doc.rebuild(doc.segments.map(upper), 'es') as string
    expect(out).toContain('<trans-unit id="final"><source>Done.</source><target state="final">Hecho.</target></trans-unit>')
    expect(out).toContain('<trans-unit id="approved" approved="yes"><source>Done?</source><target>¿Hecho?</target></trans-unit>')
    expect(segmentDocument(XLIFF20, MIME, { finished: 'source' }).segments).toEqual(expect.arrayContaining(['Done.', 'Done!']))
  })

  it('translation: a final target is read and written back in place where it changed, its state kept', () => {
    const doc = segmentDocument(XLIFF12, MIME, { finished: 'translation' })
    expect(doc.segments).toEqual(expect.arrayContaining(['Hecho.', '¡Hecho!', '¿Hecho?']))
    expect(doc.segments).not.toContain('Done.')
    expect(doc.rebuild(doc.segments)).toBe(XLIFF12)
    const out = doc.rebuild(doc.segments.map(s => s === 'Hecho.' ? 'Terminado.' : s)) as string
    expect(out).toBe(XLIFF12.replace('<target state="final">Hecho.</target>', '<target state="final">Terminado.</target>'))
    const v2 = segmentDocument(XLIFF20, MIME, { finished: 'translation' })
    expect(v2.rebuild(v2.segments.map(s => s === 'Fait !' ? 'Fini !' : s))).toBe(XLIFF20.replace('<target>Fait !</target>', '<target>Fini !</target>'))
  })

  it('translation: a target of any state is read and written back in place; a unit without a target, or with an empty one, neither read nor written', () => {
    const doc = segmentDocument(XLIFF12, MIME, { finished: 'translation' })
    expect(doc.segments).toEqual(['Old text', 'Hecho.', '¡Hecho!', '¿Hecho?'])
    const out = doc.rebuild(doc.segments.map(s => s.replace('Old', 'New'))) as string
    expect(out).toBe(XLIFF12.replace('<target state="needs-translation">Old text</target>', '<target state="needs-translation">New text</target>'))
  })
})

describe('application/xliff+xml: bad files are a 400 naming the line', () => {
  const error = (source: string): string => {
    try {
      segmentDocument(source, MIME)
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError)
      return (err as ValidationError).errors![0]!.message
    }
    throw new Error('no error')
  }
  it('names the line', () => {
    expect(error('<xliff version="1.2">\n<file>\n<body></file>\n</xliff>')).toMatch(/^line 3, column \d+: /)
    expect(error('<?xml version="1.0"?>\n<html/>')).toBe('line 2: an XLIFF file\'s root element is <xliff>, not <html>')
    expect(error('<xliff version="3.0"/>')).toMatch(/^line 1: <xliff> needs version="1.2" or version="2.0"/)
    expect(error('<xliff version="1.2"><file><body><trans-unit><source>&nbsp;</source></trans-unit></body></file></xliff>')).toMatch(/^line 1, column \d+: undefined entity/)
    expect(error('')).toMatch(/^line 1, column 0: document must contain a root element/)
  })
})
