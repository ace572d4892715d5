import { execFileSync } from 'node:child_process'
import { strToU8, Unzip, UnzipInflate, unzipSync, zipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { readZip, writeZip, ZipError, ZIP_LIMITS } from '../../../../../src/core/documents/office/zip.js'
import { handZip } from '../../../../helpers/office.js'

/** The members of a ZIP file as Python's zipfile reads them (name, method, content); undefined where python3 is not installed. */
function pythonMembers (bytes: Uint8Array): Array<{ name: string, stored: boolean, data: string }> | undefined {
  const script = 'import io, json, sys, zipfile\nz = zipfile.ZipFile(io.BytesIO(sys.stdin.buffer.read()))\nprint(json.dumps([{"name": i.filename, "stored": i.compress_type == 0, "data": z.read(i).decode("latin-1")} for i in z.infolist()]))'
  try {
    return JSON.parse(execFileSync('python3', ['-c', script], { input: bytes, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] })) as Array<{ name: string, stored: boolean, data: string }>
  } catch (err) {
    if ((err as { code?: string }).code === 'ENOENT') return undefined
    throw err
  }
}

/** The members of a ZIP file as fflate's streaming Unzip reads them, from their local headers, in order (its unzipSync keys them by name: `__proto__` is lost). */
function fflateMembers (bytes: Uint8Array): Array<{ name: string, stored: boolean, data: string }> {
  const out: Array<{ name: string, stored: boolean, data: string }> = []
  const unzip = new Unzip(file => {
    const member = { name: file.name, stored: file.compression === 0, data: '' }
    out.push(member)
    file.ondata = (err, chunk) => {
      if (err !== null) throw err
      member.data += Buffer.from(chunk).toString('latin1')
    }
    file.start()
  })
  unzip.register(UnzipInflate)
  unzip.push(bytes, true)
  return out
}

const refusal = (bytes: Uint8Array, limits = ZIP_LIMITS): string => {
  try {
    readZip(bytes, limits)
  } catch (err) {
    expect(err).toBeInstanceOf(ZipError)
    return (err as Error).message
  }
  throw new Error('expected a refusal')
}

describe('readZip / writeZip', () => {
  it('reads what fflate wrote, in order, and writes it back so that fflate reads the same members', () => {
    const png = new Uint8Array(300).map((_, i) => (i * 7919) % 256)
    const file = zipSync({ mimetype: [strToU8('application/epub+zip'), { level: 0 }], 'word/document.xml': strToU8('<w:document/>'.repeat(50)), 'media/a.png': png })
    const entries = readZip(file)
    expect(entries.map(e => e.name)).toEqual(['mimetype', 'word/document.xml', 'media/a.png'])
    expect(entries[0]!.stored).toBe(true)
    const again = unzipSync(writeZip(entries))
    expect(Object.keys(again)).toEqual(['mimetype', 'word/document.xml', 'media/a.png'])
    expect(Buffer.from(again['media/a.png']!).equals(Buffer.from(png))).toBe(true)
    expect(Buffer.from(again['word/document.xml']!).toString()).toBe('<w:document/>'.repeat(50))
    // the mimetype stays first and stored, as ODF and EPUB readers require
    const out = writeZip(entries)
    expect(Buffer.from(out.subarray(30, 38)).toString()).toBe('mimetype')
    expect(out[8]).toBe(0)
  })

  it('writes members named as an object\'s keys (__proto__, constructor, integers) as members, in their order, each as it came', () => {
    const names = ['mimetype', '__proto__', 'constructor', '1', 'OEBPS/content.opf', '0', '10', 'toString', 'café.xhtml']
    const entries = names.map((name, i) => ({ name, data: strToU8(name === 'mimetype' ? 'application/epub+zip' : `member ${name} `.repeat(i + 1)), stored: i % 2 === 0, mtime: new Date(2020, 1, 3, 4, 5, 6) }))
    const out = writeZip(entries)
    const expected = entries.map(e => ({ name: e.name, stored: e.stored, data: Buffer.from(e.data).toString('latin1') }))
    // a reader nobody here wrote: Python's zipfile checks each member's CRC-32 as it reads it
    const python = pythonMembers(out)
    if (python !== undefined) expect(python).toEqual(expected)
    expect(fflateMembers(out)).toEqual(expected)
    // and our own reader, with the times and methods written
    expect(readZip(out).map(e => ({ name: e.name, stored: e.stored, data: Buffer.from(e.data).toString('latin1'), mtime: e.mtime.getTime() })))
      .toEqual(expected.map(e => ({ ...e, mtime: new Date(2020, 1, 3, 4, 5, 6).getTime() })))
    expect(Buffer.from(out.subarray(30, 38)).toString()).toBe('mimetype')
  })

  it('reads a member whose sizes only the central directory has (a data descriptor), and a hand-made file', () => {
    expect(readZip(handZip([{ name: 'a.xml', data: strToU8('<a/>') }])).map(e => e.name)).toEqual(['a.xml'])
  })

  it('refuses what is not a ZIP file, or a truncated one', () => {
    expect(refusal(strToU8('hello world'))).toMatch(/is not a ZIP file/)
    const file = zipSync({ 'a.txt': strToU8('abc') })
    expect(refusal(file.subarray(0, file.length - 10))).toMatch(/end record is missing/)
  })

  it.each([
    ['../evil.xml', /"\.\." in its path/],
    ['word/../../evil.xml', /"\.\." in its path/],
    ['/etc/passwd', /absolute path/],
    ['C:/x.xml', /absolute path/],
    ['word\\document.xml', /backslash/]
  ])('refuses the member name %s', (name, message) => {
    expect(refusal(handZip([{ name, data: strToU8('x') }]))).toMatch(message)
  })

  it('refuses a name twice', () => {
    expect(refusal(handZip([{ name: 'a.xml', data: strToU8('1') }, { name: 'a.xml', data: strToU8('2') }]))).toMatch(/names member "a.xml" twice/)
  })

  it('refuses too many members before inflating any', () => {
    const many = Array.from({ length: ZIP_LIMITS.entries + 1 }, (_, i) => ({ name: `f${i}`, data: new Uint8Array(0), stored: true }))
    expect(refusal(handZip(many))).toMatch(new RegExp(`has ${ZIP_LIMITS.entries + 1} members; at most ${ZIP_LIMITS.entries}`))
  })

  it('refuses a zip bomb by its declared size, by its ratio, and one that lies about its size, without inflating it all', () => {
    const big = new Uint8Array(ZIP_LIMITS.entryBytes + 1)
    expect(refusal(handZip([{ name: 'big.xml', data: big }]))).toMatch(/inflates to \d+ bytes; a member may hold at most/)
    // under the member bound but a thousand times its stored size
    const dense = new Uint8Array(4 * 1024 * 1024)
    expect(refusal(handZip([{ name: 'dense.xml', data: dense }]))).toMatch(/inflates \d+ times its stored size; at most 200/)
    // declares 10 bytes, inflates to 16 MB: inflation stops at 11 bytes
    const liar = handZip([{ name: 'liar.xml', data: new Uint8Array(16 * 1024 * 1024), declared: 10 }])
    const before = process.memoryUsage().arrayBuffers
    expect(refusal(liar)).toMatch(/inflates past its declared size of 10 bytes/)
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * 1024 * 1024)
    // the members together
    const parts = Array.from({ length: 5 }, (_, i) => ({ name: `p${i}.bin`, data: new Uint8Array(1000).fill(i), stored: true }))
    expect(refusal(handZip(parts), { ...ZIP_LIMITS, totalBytes: 4500 })).toMatch(/inflates to more than 4500 bytes in all/)
  })

  it('refuses a member that inflates short of its declared size, or whose CRC does not match', () => {
    expect(refusal(handZip([{ name: 'short.xml', data: strToU8('abc'), declared: 5 }]))).toMatch(/inflates to 3 bytes, not the 5/)
    const file = zipSync({ 'a.txt': strToU8('abc') })
    const bad = Uint8Array.from(file)
    bad[14] = bad[14]! ^ 0xff
    // fflate writes the CRC in both headers; the central directory's is the one read
    const cd = Buffer.from(bad).indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    bad[cd + 16] = bad[cd + 16]! ^ 0xff
    expect(refusal(bad)).toMatch(/CRC-32 does not match/)
  })

  it('refuses encrypted members and unknown methods', () => {
    const file = Buffer.from(handZip([{ name: 'a.xml', data: strToU8('x') }]))
    const cd = file.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    const encrypted = Buffer.from(file)
    encrypted.writeUInt16LE(1, cd + 8)
    expect(refusal(encrypted)).toMatch(/is encrypted/)
    const bzip = Buffer.from(file)
    bzip.writeUInt16LE(12, cd + 10)
    expect(refusal(bzip)).toMatch(/compression method 12/)
  })
})
