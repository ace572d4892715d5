/**
 * Characters XML 1.0 cannot hold (C0 controls but tab and line breaks, U+FFFE, U+FFFF, lone
 * surrogates) in what is written into an XML format: a substitution or an engine may answer them
 * (a glossary pasted from Excel holds its in-cell line breaks, U+000B). They are dropped, so the
 * file still parses; a probe's DOCX, XLIFF and Android files came back refused by expat.
 */
import { SaxesParser } from 'saxes'
import { strFromU8 } from 'fflate'
import { describe, expect, it } from 'vitest'
import { segmentDocument } from '../../../../src/core/documents/segment.js'
import { keptElements } from '../../../../src/core/documents/kept-elements.js'
import { base64, DOCX, EPUB, makeDocx, makeEpub, members } from '../../../helpers/office.js'

const NOT_XML = ['\u000b', '\u0001', '\u0000', '\ufffe', '\ud800']
/** An engine that answers each segment with the characters XML refuses in it. */
const withControls = (segment: string): string => segment.replace(/(\w+)/, `$1${NOT_XML.join('')}`)

/** Whether saxes (strict XML) reads the document without an error; the error's message where not. */
function xmlError (xml: string, fragment = false): string | undefined {
  let error: string | undefined
  const parser = new SaxesParser({ xmlns: true, fragment })
  parser.on('error', e => { error ??= e.message })
  parser.write(xml).close()
  return error
}

describe('characters XML cannot hold, answered into an XML format', () => {
  it('are dropped from DOCX, EPUB, XLIFF, Android strings and DeepL\'s xml texts, which still parse', () => {
    const docx = segmentDocument(base64(makeDocx('<w:p><w:r><w:t>The red car is fast.</w:t></w:r></w:p>')), DOCX)
    const part = strFromU8(members(docx.rebuild(docx.segments.map(withControls), 'es') as string)['word/document.xml']!)
    expect(xmlError(part), part).toBeUndefined()
    expect(part).toContain('The red car is fast.')

    const xlf = '<?xml version="1.0"?><xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2"><file source-language="en" target-language="es" datatype="plaintext" original="x"><body><trans-unit id="1"><source>The red car.</source></trans-unit></body></file></xliff>'
    const xliff = segmentDocument(xlf, 'application/xliff+xml')
    const xliffOut = xliff.rebuild(xliff.segments.map(withControls), 'es') as string
    expect(xmlError(xliffOut), xliffOut).toBeUndefined()
    expect(xliffOut).toContain('<target state="translated">The red car.</target>')

    const android = segmentDocument('<?xml version="1.0" encoding="utf-8"?>\n<resources><string name="a">The red car.</string></resources>\n', 'application/vnd.android.strings+xml')
    const androidOut = android.rebuild(android.segments.map(withControls), 'es') as string
    expect(xmlError(androidOut), androidOut).toBeUndefined()
    expect(androidOut).toContain('>The red car.</string>')

    const epub = segmentDocument(base64(makeEpub(['<p>The red car is fast.</p>'])), EPUB)
    const chapter = strFromU8(members(epub.rebuild(epub.segments.map(withControls), 'es') as string)['OEBPS/text/chapter 1.xhtml']!)
    expect(xmlError(chapter), chapter).toBeUndefined()
    expect(chapter).toContain('<p>The red car is fast.</p>')

    const deepl = segmentDocument('<p>The red <b>car</b>.</p>', 'text/html', { kept: keptElements(true, []) })
    const deeplOut = deepl.rebuild(deepl.segments.map(withControls)) as string
    expect(xmlError(deeplOut, true), deeplOut).toBeUndefined()
  })
})
