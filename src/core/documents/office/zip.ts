/**
 * The ZIP container of office files (DOCX, PPTX, XLSX, ODF, EPUB), read and written within
 * bounds, for files nobody vouches for.
 *
 * Reading is strict and done here from the central directory, not by fflate's readers: its
 * unzipSync neither checks a member's CRC nor its inflated length against the declared one, and
 * its streaming Unzip trusts local headers. Each member is inflated by Node's zlib with its output
 * capped (inflation stops at the cap), then its length and CRC-32 are checked against the central
 * directory. Refused, as a 400 naming what is wrong: more than ZIP_LIMITS.entries members, a
 * member or the members together inflating past their bounds, a ratio of inflated to stored
 * size past ZIP_LIMITS.ratio (for members over ZIP_LIMITS.ratioFrom bytes), names with `..`,
 * absolute or drive paths, backslashes or NUL, a name twice, encrypted or multi-disk archives,
 * ZIP64, methods other than stored and deflate. Writing is done here too, in the original order,
 * each member stored or deflated as it came, with its original time, its sizes and CRC-32 in its
 * local header: fflate's zipSync takes the members as an object keyed by name (a member named
 * `__proto__` set its prototype, one named `1` went first, before EPUB's and ODF's mimetype), and
 * its streaming Zip writes each member's sizes after its data, which Java's ZipInputStream refuses
 * for a stored member.
 */
import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib'

export interface ZipLimits { entries: number, entryBytes: number, totalBytes: number, ratio: number, ratioFrom: number }

export const ZIP_LIMITS: Readonly<ZipLimits> = {
  /** Members in one file. */
  entries: 2000,
  /** Inflated bytes of one member. */
  entryBytes: 32 * 1024 * 1024,
  /** Inflated bytes of all members together. */
  totalBytes: 64 * 1024 * 1024,
  /** Inflated to stored size, for members inflating past ratioFrom bytes. */
  ratio: 200,
  ratioFrom: 1024 * 1024
}

/** Why a container was refused: the message names what is wrong (the caller makes it a 400). */
export class ZipError extends Error {}

export interface ZipEntry {
  name: string
  data: Uint8Array
  /** Stored (method 0) rather than deflated: written back the same way. */
  stored: boolean
  /** The member's modification time as the archive says it (DOS time, local). */
  mtime: Date
}

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50

/** A name that could not be extracted safely, or that no office package uses. */
function unsafeName (name: string): string | undefined {
  if (name === '') return 'has an empty name'
  if (name.includes('\\')) return 'has a backslash in its name'
  if (name.includes('\u0000')) return 'has NUL in its name'
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return 'has an absolute path'
  if (name.split('/').some(part => part === '..' || part === '.')) return 'has "." or ".." in its path'
  return undefined
}

const quote = (name: string): string => JSON.stringify(name.length > 100 ? `${name.slice(0, 100)}…` : name)

function dosTime (date: number, time: number): Date {
  const d = new Date(((date >> 9) & 0x7f) + 1980, ((date >> 5) & 0x0f) - 1, date & 0x1f, (time >> 11) & 0x1f, (time >> 5) & 0x3f, (time & 0x1f) * 2)
  // written back within 1980..2099; an impossible date (month 0) becomes the first day that can be
  return Number.isNaN(d.getTime()) || d.getFullYear() < 1980 || d.getFullYear() > 2099 ? new Date(1980, 0, 1) : d
}

/** Whether `bytes` starts as a ZIP file does (a local header, or an empty archive's end record). */
export function looksLikeZip (bytes: Uint8Array): boolean {
  if (bytes.length < 4) return false
  const sig = (bytes[0]! | bytes[1]! << 8 | bytes[2]! << 16 | bytes[3]! << 24) >>> 0
  return sig === LOCAL || sig === EOCD
}

const COMPOUND_FILE = Buffer.from('d0cf11e0a1b11ae1', 'hex')
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le')

/** An office file saved with a password: an OLE compound file (not a ZIP) whose EncryptedPackage stream holds the package (MS-OFFCRYPTO). */
function encryptedOoxml (bytes: Uint8Array): boolean {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  return b.subarray(0, 8).equals(COMPOUND_FILE) && b.includes(ENCRYPTED_PACKAGE)
}

/** The members of a ZIP file, in central directory order; a ZipError naming what is wrong. */
export function readZip (bytes: Uint8Array, limits: Readonly<ZipLimits> = ZIP_LIMITS): ZipEntry[] {
  try {
    return readEntries(bytes, limits)
  } catch (err) {
    // a read past the end (DataView's RangeError) is a damaged file, not the caller's failure
    if (err instanceof RangeError) throw new ZipError('is a damaged ZIP file: a record runs past its end')
    throw err
  }
}

function readEntries (bytes: Uint8Array, limits: Readonly<ZipLimits>): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const u16 = (at: number): number => view.getUint16(at, true)
  const u32 = (at: number): number => view.getUint32(at, true)
  if (!looksLikeZip(bytes)) throw new ZipError(encryptedOoxml(bytes) ? 'is encrypted (password-protected): save it without a password' : 'is not a ZIP file (office files and EPUB are ZIP packages)')
  // the end record lies in the last 22 + 65,535 (comment) bytes
  let eocd = -1
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === EOCD) { eocd = at; break }
  }
  if (eocd === -1) throw new ZipError('is not a complete ZIP file: its end record is missing (truncated?)')
  const count = u16(eocd + 10)
  const cdSize = u32(eocd + 12)
  const cdStart = u32(eocd + 16)
  if (u16(eocd + 4) !== 0 || u16(eocd + 6) !== 0 || u16(eocd + 8) !== count) throw new ZipError('is a multi-disk ZIP archive, which is not read')
  if (count === 0xffff || cdSize === 0xffffffff || cdStart === 0xffffffff) throw new ZipError('is a ZIP64 archive, which is not read (no office file needs it at the sizes taken)')
  if (count > limits.entries) throw new ZipError(`has ${count} members; at most ${limits.entries} are read`)
  if (cdStart + cdSize > eocd) throw new ZipError('is a damaged ZIP file: its central directory lies outside the file')

  const entries: ZipEntry[] = []
  const names = new Set<string>()
  let total = 0
  let at = cdStart
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || u32(at) !== CENTRAL) throw new ZipError(`is a damaged ZIP file: central directory record ${i + 1} is not where it should be`)
    const flags = u16(at + 8)
    const method = u16(at + 10)
    const crc = u32(at + 16)
    const storedSize = u32(at + 20)
    const size = u32(at + 24)
    const nameLength = u16(at + 28)
    const next = at + 46 + nameLength + u16(at + 30) + u16(at + 32)
    const localAt = u32(at + 42)
    if (next > eocd) throw new ZipError(`is a damaged ZIP file: central directory record ${i + 1} runs past its end`)
    const name = new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(at + 46, at + 46 + nameLength))
    const member = `member ${quote(name)}`
    const unsafe = unsafeName(name)
    if (unsafe !== undefined) throw new ZipError(`${member} ${unsafe}`)
    if (names.has(name)) throw new ZipError(`names member ${quote(name)} twice`)
    names.add(name)
    if ((flags & 1) !== 0) throw new ZipError(`${member} is encrypted`)
    if (method !== 0 && method !== 8) throw new ZipError(`${member} uses compression method ${method}; only stored (0) and deflate (8) are read`)
    if (size > limits.entryBytes) throw new ZipError(`${member} inflates to ${size} bytes; a member may hold at most ${limits.entryBytes}`)
    total += size
    if (total > limits.totalBytes) throw new ZipError(`inflates to more than ${limits.totalBytes} bytes in all (zip bomb?)`)
    if (size > limits.ratioFrom && size > storedSize * limits.ratio) throw new ZipError(`${member} inflates ${Math.round(size / Math.max(1, storedSize))} times its stored size; at most ${limits.ratio} (zip bomb?)`)
    if (method === 0 && size !== storedSize) throw new ZipError(`${member} is stored but its sizes differ`)
    if (localAt + 30 > cdStart || u32(localAt) !== LOCAL) throw new ZipError(`is a damaged ZIP file: ${member}'s local header is missing`)
    const dataAt = localAt + 30 + u16(localAt + 26) + u16(localAt + 28)
    if (dataAt + storedSize > cdStart) throw new ZipError(`is a damaged ZIP file: ${member}'s data runs past its end`)
    const raw = bytes.subarray(dataAt, dataAt + storedSize)
    let data: Uint8Array
    if (method === 0) data = raw
    else {
      try {
        // capped one byte past the declared size: a member that inflates further stops there and is refused
        data = inflateRawSync(raw, { maxOutputLength: Math.max(1, size + 1) })
      } catch (err) {
        const code = (err as { code?: string }).code
        throw new ZipError(code === 'ERR_BUFFER_TOO_LARGE' ? `${member} inflates past its declared size of ${size} bytes (zip bomb?)` : `${member} is damaged: it does not inflate`)
      }
    }
    if (data.length !== size) throw new ZipError(`${member} inflates to ${data.length} bytes, not the ${size} its directory declares`)
    if (crc32(data) !== crc) throw new ZipError(`${member} is damaged: its CRC-32 does not match`)
    entries.push({ name, data, stored: method === 0, mtime: dosTime(u16(at + 14), u16(at + 12)) })
    at = next
  }
  return entries
}

/** A DOS date and time (local) as the two 16-bit fields of a ZIP header. */
function dosFields (mtime: Date): { date: number, time: number } {
  return {
    date: ((mtime.getFullYear() - 1980) << 9) | ((mtime.getMonth() + 1) << 5) | mtime.getDate(),
    time: (mtime.getHours() << 11) | (mtime.getMinutes() << 5) | (mtime.getSeconds() >> 1)
  }
}

/** A ZIP file of `entries` in their order, each stored or deflated as `stored` says. */
export function writeZip (entries: readonly ZipEntry[]): Uint8Array {
  const locals: Uint8Array[] = []
  const centrals: Uint8Array[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8')
    const body = e.stored ? e.data : deflateRawSync(e.data, { level: 6 })
    const { date, time } = dosFields(e.mtime)
    // version needed, flags (bit 11: the name is UTF-8), method, time, date, CRC-32, sizes, name length, no extra field
    const common = Buffer.alloc(26)
    common.writeUInt16LE(20, 0)
    common.writeUInt16LE(name.length === e.name.length ? 0 : 0x800, 2)
    common.writeUInt16LE(e.stored ? 0 : 8, 4)
    common.writeUInt16LE(time, 6)
    common.writeUInt16LE(date, 8)
    common.writeUInt32LE(crc32(e.data), 10)
    common.writeUInt32LE(body.length, 14)
    common.writeUInt32LE(e.data.length, 18)
    common.writeUInt16LE(name.length, 22)
    const local = Buffer.alloc(4)
    local.writeUInt32LE(LOCAL, 0)
    // signature, version made by, the common fields, then no comment, disk 0, no attributes, the local header's offset
    const central = Buffer.alloc(46)
    central.writeUInt32LE(CENTRAL, 0)
    central.writeUInt16LE(20, 4)
    common.copy(central, 6)
    central.writeUInt32LE(offset, 42)
    locals.push(local, common, name, body)
    centrals.push(central, name)
    offset += 30 + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(EOCD, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
