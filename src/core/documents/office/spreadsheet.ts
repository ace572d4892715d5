/**
 * A spreadsheet's header cells that are identifiers, kept untranslated: the header row of each
 * table (XLSX `xl/tables/*.xml`: a `tableColumn`'s name must equal its header cell, or Excel
 * repairs the file by dropping the table; formulas name the columns, `Table1[Result]`) and the
 * first row of each pivot table's source range (its cache fields, and the ODS data pilot's
 * `table:source-field-name`, are those cells' text). Renaming them consistently would mean
 * rewriting formulas and pivot caches; a header is a name, like a sheet's.
 */
import { posix } from 'node:path'
import { decodeXml, elementsWhere, type XmlElement } from './xml.js'

/** The parts of a package, read as XML (each read once: the same elements are translated after). */
export interface Parts {
  has: (name: string) => boolean
  xml: (name: string) => { source: string, root: XmlElement }
}

/** Rows and columns (1-based, inclusive) of a sheet's cells. */
interface Area { top: number, bottom: number, left: number, right: number }

const columnNumber = (letters: string): number => [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0)

/** A range as A1 references (`$A$1:$E$21`, `A1`); undefined when it is not one. */
function area (ref: string): Area | undefined {
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(ref.trim())
  if (m === null) return undefined
  const [left, top, right, bottom] = [columnNumber(m[1]!), Number(m[2]), columnNumber(m[3] ?? m[1]!), Number(m[4] ?? m[2])]
  return { top: Math.min(top, bottom), bottom: Math.max(top, bottom), left: Math.min(left, right), right: Math.max(left, right) }
}

/** The first `rows` rows of an area. */
const head = (a: Area, rows = 1): Area => ({ ...a, bottom: Math.min(a.bottom, a.top + rows - 1) })

const within = (areas: readonly Area[], row: number, column: number): boolean => areas.some(a => row >= a.top && row <= a.bottom && column >= a.left && column <= a.right)

/** A relationship id attribute (`r:id`, whatever its prefix). */
const relationshipId = (e: XmlElement): string | undefined => Object.entries(e.attributes).find(([name]) => /^[^:]+:id$/.test(name))?.[1]

/** The targets of a part's relationships by id, as part names (external targets left out). */
function relationships (parts: Parts, part: string): Map<string, { type: string, target: string }> {
  const out = new Map<string, { type: string, target: string }>()
  const name = posix.join(posix.dirname(part), '_rels', `${posix.basename(part)}.rels`)
  if (!parts.has(name)) return out
  for (const r of parts.xml(name).root.children) {
    const { Id: id, Type: type, Target: target, TargetMode: mode } = r.attributes
    if (id === undefined || target === undefined || mode === 'External') continue
    out.set(id, { type: type ?? '', target: target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join(posix.dirname(part), target)) })
  }
  return out
}

const SML = 'application/vnd.openxmlformats-officedocument.spreadsheetml.'

/**
 * XLSX: the shared strings (`si`) and inline strings (`is`) of table and pivot source headers.
 * A shared string is kept wherever it is used: every cell that shows it shows one text.
 */
export function xlsxHeaders (parts: Parts, types: ReadonlyMap<string, string>, workbook: string): Set<XmlElement> {
  const kept = new Set<XmlElement>()
  // most workbooks have neither: their workbook and sheets are not read twice
  if (![...types.values()].some(t => t === `${SML}table+xml` || t === `${SML}pivotCacheDefinition+xml`)) return kept
  const headers = new Map<string, Area[]>()
  const add = (sheet: string | undefined, a: Area | undefined): void => {
    if (sheet === undefined || a === undefined || !parts.has(sheet)) return
    headers.set(sheet, [...headers.get(sheet) ?? [], a])
  }
  const { source: book, root } = parts.xml(workbook)
  const bookRels = relationships(parts, workbook)
  const sheets = new Map<string, string>()
  const tables = new Map<string, { sheet: string, ref: Area }>()
  for (const s of elementsWhere(root, e => e.local === 'sheet')) {
    const id = relationshipId(s)
    const part = id === undefined ? undefined : bookRels.get(id)?.target
    if (s.attributes.name === undefined || part === undefined || !parts.has(part)) continue
    sheets.set(s.attributes.name.toLowerCase(), part)
    for (const { type, target } of relationships(parts, part).values()) {
      if (!type.endsWith('/table') || !parts.has(target)) continue
      const table = parts.xml(target).root
      const ref = area(table.attributes.ref ?? '')
      if (ref === undefined) continue
      for (const name of [table.attributes.name, table.attributes.displayName]) if (name !== undefined) tables.set(name.toLowerCase(), { sheet: part, ref })
      const rows = Number(table.attributes.headerRowCount ?? '1')
      if (rows > 0) add(part, head(ref, rows))
    }
  }
  // a defined name of the workbook as a sheet and range (`'My sheet'!$A$1:$E$21`)
  const named = (name: string): { sheet: string | undefined, ref: Area | undefined } | undefined => {
    const d = elementsWhere(root, e => e.local === 'definedName' && e.attributes.localSheetId === undefined && e.attributes.name?.toLowerCase() === name.toLowerCase())[0]
    const m = d === undefined ? null : /^(?:'((?:[^']|'')+)'|([^!'"]+))!(\S+)$/.exec(decodeXml(book.slice(d.openEnd, d.closeStart)).trim())
    if (m === null) return undefined
    return { sheet: sheets.get((m[1]?.replaceAll("''", "'") ?? m[2]!).toLowerCase()), ref: area(m[3]!) }
  }
  for (const [name, type] of types) {
    if (type !== `${SML}pivotCacheDefinition+xml` || !parts.has(name)) continue
    const from = elementsWhere(parts.xml(name).root, e => e.local === 'worksheetSource')[0]
    // another workbook's range (r:id) is not this file's
    if (from === undefined || relationshipId(from) !== undefined) continue
    const { name: source, ref, sheet } = from.attributes
    if (source !== undefined) {
      const table = tables.get(source.toLowerCase())
      const range = table === undefined ? named(source) : undefined
      if (range !== undefined) add(range.sheet, range.ref === undefined ? undefined : head(range.ref))
    } else if (ref !== undefined && sheet !== undefined) {
      const a = area(ref)
      add(sheets.get(sheet.toLowerCase()), a === undefined ? undefined : head(a))
    }
  }
  const shared = new Set<number>()
  for (const [part, areas] of headers) {
    const { source, root: sheet } = parts.xml(part)
    let row = 0
    for (const r of elementsWhere(sheet, e => e.local === 'row')) {
      row = Number(r.attributes.r ?? row + 1)
      let column = 0
      for (const c of r.children) {
        if (c.local !== 'c') continue
        const at = /^([A-Za-z]{1,3})\d*$/.exec(c.attributes.r ?? '')
        column = at === null ? column + 1 : columnNumber(at[1]!)
        if (!within(areas, row, column)) continue
        const v = c.children.find(x => x.local === 'v')
        if (c.attributes.t === 's' && v !== undefined) shared.add(Number(source.slice(v.openEnd, v.closeStart).trim()))
        const is = c.children.find(x => x.local === 'is')
        if (c.attributes.t === 'inlineStr' && is !== undefined) kept.add(is)
      }
    }
  }
  if (shared.size > 0) {
    for (const [name, type] of types) {
      if (type !== `${SML}sharedStrings+xml` || !parts.has(name)) continue
      parts.xml(name).root.children.filter(e => e.local === 'si').forEach((si, k) => { if (shared.has(k)) kept.add(si) })
    }
  }
  return kept
}

const TABLE = 'urn:oasis:names:tc:opendocument:xmlns:table:1.0'
const ofTable = (e: XmlElement, local: string): boolean => e.local === local && e.uri === TABLE
/** An attribute in the element's own namespace (`table:name` of a `table:table`). */
const attribute = (e: XmlElement, local: string): string | undefined => e.attributes[e.prefix === '' ? local : `${e.prefix}:${local}`]
const repeats = (value: string | undefined): number => Math.max(1, Number(value ?? '1') || 1)

/** An OpenDocument cell range address (`Data.A1:Data.C557`, `$'My data'.$A$1:.$B$6`) as its sheet and area. */
function odsRange (address: string): { sheet: string, area: Area } | undefined {
  const m = /^\$?(?:'((?:[^']|'')+)'|([^.' ]+))\.\$?([A-Za-z]{1,3})\$?(\d+)(?::(?:\$?(?:'(?:[^']|'')+'|[^.' ]+))?\.\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(address.trim())
  if (m === null) return undefined
  const a = area(m[5] === undefined ? `${m[3]!}${m[4]!}` : `${m[3]!}${m[4]!}:${m[5]}${m[6]!}`)
  return a === undefined ? undefined : { sheet: m[1]?.replaceAll("''", "'") ?? m[2]!, area: a }
}

/** ODS: the cells of the first row of each data pilot's source range. */
export function odsHeaders (root: XmlElement): Set<XmlElement> {
  const kept = new Set<XmlElement>()
  const headers = new Map<string, Area[]>()
  for (const source of elementsWhere(root, e => ofTable(e, 'source-cell-range'))) {
    const range = odsRange(attribute(source, 'cell-range-address') ?? '')
    if (range !== undefined) headers.set(range.sheet, [...headers.get(range.sheet) ?? [], head(range.area)])
  }
  if (headers.size === 0) return kept
  for (const sheet of elementsWhere(root, e => ofTable(e, 'table'))) {
    const areas = headers.get(attribute(sheet, 'name') ?? '')
    if (areas === undefined) continue
    let row = 1
    // rows of this sheet, in header rows and groups too, not those of a table nested in a cell
    for (const r of elementsWhere(sheet, e => ofTable(e, 'table-row'), e => e !== sheet && ofTable(e, 'table'))) {
      const rows = repeats(attribute(r, 'number-rows-repeated'))
      let column = 1
      for (const c of r.children) {
        if (!ofTable(c, 'table-cell') && !ofTable(c, 'covered-table-cell')) continue
        const columns = repeats(attribute(c, 'number-columns-repeated'))
        if (areas.some(a => a.top >= row && a.top < row + rows && a.left < column + columns && a.right >= column)) kept.add(c)
        column += columns
      }
      row += rows
    }
  }
  return kept
}
