/**
 * Multipart form bodies as clients other than browsers write them: a part's quoted file name or
 * field name with RFC 7578/2045 quoted pairs (Go's mime/multipart CreateFormFile writes
 * `filename="My \"Best\" Report.txt"`) reads as the name meant, as the WHATWG `%22` form does.
 */
import { describe, expect, it } from 'vitest'
import { isFormFile, readForm, type FormFields } from '../../../src/http/forms.js'

const BOUNDARY = 'b0undary'
const FILES = { names: ['file'], maxBytes: 10_000 }

/** A multipart body of a file part whose Content-Disposition parameters are written as given, then a `target` field. */
function body (disposition: string, content = 'The red car.'): Buffer {
  return Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; ${disposition}\r\nContent-Type: text/plain\r\n\r\n${content}\r\n` +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="target"\r\n\r\nes\r\n--${BOUNDARY}--\r\n`, 'utf8')
}

async function fields (bytes: Uint8Array): Promise<FormFields> {
  const read = await readForm(bytes, 'multipart', `multipart/form-data; boundary=${BOUNDARY}`, FILES)
  if ('problem' in read) throw new Error(read.problem.message)
  return read.fields
}

async function fileName (disposition: string): Promise<string> {
  const file = (await fields(body(disposition)))['file']
  if (!isFormFile(file)) throw new Error('no file part')
  return file.filename
}

describe('a part\'s quoted-pair escapes', () => {
  it('read as the characters they escape, as the WHATWG encoding reads (Go\'s CreateFormFile)', async () => {
    expect(await fileName('name="file"; filename="My \\"Best\\" Report.txt"')).toBe('My "Best" Report.txt')
    expect(await fileName('name="file"; filename="My %22Best%22 Report.txt"')).toBe('My "Best" Report.txt')
    expect(await fileName('name="file"; filename="back\\\\slash.txt"')).toBe('back\\slash.txt')
    expect(await fileName('name="file"; filename="café \\"menu\\".txt"')).toBe('café "menu".txt')
    // a field's name too
    const named = await fields(Buffer.from(body('name="file"; filename="a.txt"').toString('utf8').replace('name="target"', 'name="tar\\"get\\""')))
    expect(named['tar"get"']).toBe('es')
  })

  it('leave a browser\'s backslashes as they were: it escapes none (a name ending in one, one before a letter)', async () => {
    expect(await fileName('name="file"; filename="dir\\"')).toBe('dir\\')
    expect(await fileName('name="file"; filename="C:\\temp.txt"')).toBe('C:\\temp.txt')
  })

  it('are read in part headers only: the parts\' contents stay byte for byte', async () => {
    const content = 'Content-Disposition: form-data; name="x"; filename="a \\"b\\""\r\n\\\\ \\" end'
    const file = (await fields(body('name="file"; filename="My \\"Best\\" Report.txt"', content)))['file']
    expect(isFormFile(file) && Buffer.from(file.bytes).toString('utf8')).toBe(content)
  })

  it('read alike from a body shared with a pool thread', async () => {
    const bytes = body('name="file"; filename="My \\"Best\\" Report.txt"')
    const shared = new Uint8Array(new SharedArrayBuffer(bytes.length))
    shared.set(bytes)
    const file = (await fields(shared))['file']
    expect(isFormFile(file) && file.filename).toBe('My "Best" Report.txt')
  })
})
