/** Reads GNU gettext .mo catalogs: the translated strings and the English source strings they translate. */

export interface CatalogEntry {
  /** The English source string (first form when plural). */
  source: string
  /** The translation (first form when plural). */
  translation: string
}

/** Every non-empty entry of a .mo file, header excluded. */
export function readMo (data: Buffer): CatalogEntry[] {
  if (data.length < 28) return []
  const magic = data.readUInt32LE(0)
  let u32: (offset: number) => number
  if (magic === 0x950412de) u32 = offset => data.readUInt32LE(offset)
  else if (magic === 0xde120495) u32 = offset => data.readUInt32BE(offset)
  else return []
  const count = u32(8)
  const sources = u32(12)
  const translations = u32(16)
  const entries: CatalogEntry[] = []
  for (let i = 0; i < count; i++) {
    const source = readString(data, u32(sources + i * 8), u32(sources + i * 8 + 4))
    const translation = readString(data, u32(translations + i * 8), u32(translations + i * 8 + 4))
    if (source === '' || translation === '') continue
    entries.push({ source: withoutContext(firstForm(source)), translation: firstForm(translation) })
  }
  return entries
}

function readString (data: Buffer, length: number, offset: number): string {
  return data.toString('utf8', offset, offset + length)
}

// plural forms are NUL-separated
function firstForm (s: string): string {
  const nul = s.indexOf('\0')
  return nul === -1 ? s : s.slice(0, nul)
}

// msgctxt is joined to msgid by EOT
function withoutContext (s: string): string {
  const eot = s.indexOf('\u0004')
  return eot === -1 ? s : s.slice(eot + 1)
}
