/**
 * A spreadsheet's header cells that are identifiers, kept untranslated: the header row of each
 * table (XLSX `xl/tables/*.xml`: a `tableColumn`'s name must equal its header cell, or Excel
 * repairs the file by dropping the table; formulas name the columns, `Table1[Result]`) and the
 * first row of each pivot table's source range (its cache fields, and the ODS data pilot's
 * `table:source-field-name`, are those cells' text). Renaming them consistently would mean
 * rewriting formulas and pivot caches; a header is a name, like a sheet's.
 */
import { posix } from 'node:path'
import { decodeXml, elementsWhere, PartError, type XmlElement } from './xml.js'

/** The parts of a package, read as XML (each read once: the same elements are translated after). */
export interface Parts {
  has: (name: string) => boolean
  xml: (name: string) => { source: string, root: XmlElement }
}

/** Rows and columns (1-based, inclusive) of a sheet's cells. */
interface Area { top: number, bottom: number, left: number, right: number }

const columnNumber = (letters: string): number => [...letters.toUpperCase()].reduce((n, c) => n * 26 + c.charCodeAt(0) - 64, 0)

/** A sheet's last row (Excel's). */
const ROWS = 1_048_576

/** A range as A1 references (`$A$1:$E$21`, `A1`) or whole columns (`$A:$B`, their first row row 1); undefined when it is not one. */
function area (ref: string): Area | undefined {
  const columns = /^\$?([A-Za-z]{1,3}):\$?([A-Za-z]{1,3})$/.exec(ref.trim())
  if (columns !== null) return area(`${columns[1]!}1:${columns[2]!}${ROWS}`)
  const m = /^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$/.exec(ref.trim())
  if (m === null) return undefined
  const [left, top, right, bottom] = [columnNumber(m[1]!), Number(m[2]), columnNumber(m[3] ?? m[1]!), Number(m[4] ?? m[2])]
  return { top: Math.min(top, bottom), bottom: Math.max(top, bottom), left: Math.min(left, right), right: Math.max(left, right) }
}

/** The first `rows` rows of an area. */
const head = (a: Area, rows = 1): Area => ({ ...a, bottom: Math.min(a.bottom, a.top + rows - 1) })

/**
 * A sheet's header areas, asked row by row from the top: each row's columns are the merged,
 * sorted column spans of the areas over it, rebuilt only where an area starts or ends, and a
 * cell is looked up among them by bisection; the work grows with the areas and the cells, not
 * their product (3000 data pilots over a row of 300,000 cells took 6.9 s).
 */
class HeaderRows {
  private readonly areas: Area[]
  private next = 0
  private active: Area[] = []
  /** The merged column spans of the rows asked last, as left, right pairs. */
  private spans: number[] = []
  /** The first row past which an area asked for ends. */
  private expires = Infinity

  constructor (areas: readonly Area[]) { this.areas = [...areas].sort((a, b) => a.top - b.top) }

  /** The test of rows `top` to `bottom` (at or below those asked before) for a cell's columns `left` to `right`. */
  rows (top: number, bottom: number): (left: number, right: number) => boolean {
    const before = this.active.length
    while (this.next < this.areas.length && this.areas[this.next]!.top <= bottom) this.active.push(this.areas[this.next++]!)
    if (this.active.length > before || top > this.expires) {
      const live = this.active.filter(a => a.bottom >= top)
      this.active = live
      this.expires = live.reduce((least, a) => Math.min(least, a.bottom), Infinity)
      this.spans = []
      for (const a of [...live].sort((x, y) => x.left - y.left)) {
        if (this.spans.length > 0 && a.left <= this.spans.at(-1)! + 1) this.spans[this.spans.length - 1] = Math.max(this.spans.at(-1)!, a.right)
        else this.spans.push(a.left, a.right)
      }
    }
    const spans = this.spans
    return (left, right) => {
      // the last span starting at or before `right` is the only one that may reach `left`
      let [lo, hi] = [0, spans.length / 2]
      while (lo < hi) {
        const mid = (lo + hi) >> 1
        if (spans[2 * mid]! <= right) lo = mid + 1
        else hi = mid
      }
      return lo > 0 && spans[2 * lo - 1]! >= left
    }
  }
}

/** A formula's tokens: a quoted sheet name (`'My ''data'''`), a string, a run of a name's characters, any other character. */
const FORMULA_TOKEN = /'((?:[^']|'')*)'|"(?:[^"]|"")*"|([^\s!'"(),=+*/&^<>-]+)|[\s\S]/y
/** A cell or range after a sheet's `!`: `$A$1`, `A1:B2`, `$A:$B`. */
const SHEET_RANGE = /\$?[A-Za-z]{1,3}(?:\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d+)?|:\$?[A-Za-z]{1,3})/y

/**
 * The first `sheet!range` a formula names, with where it is; read token by token, in time linear
 * in the formula (a pattern searched from every character took seconds on a 100,000-character name).
 */
function firstReference (formula: string): { sheet: string, ref: string, start: number, end: number } | undefined {
  FORMULA_TOKEN.lastIndex = 0
  for (let m = FORMULA_TOKEN.exec(formula); m !== null; m = FORMULA_TOKEN.exec(formula)) {
    const sheet = m[1]?.replaceAll("''", "'") ?? m[2]
    if (sheet === undefined || sheet === '' || formula[FORMULA_TOKEN.lastIndex] !== '!') continue
    SHEET_RANGE.lastIndex = FORMULA_TOKEN.lastIndex + 1
    const range = SHEET_RANGE.exec(formula)
    if (range !== null) return { sheet, ref: range[0], start: m.index, end: SHEET_RANGE.lastIndex }
  }
  return undefined
}

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
    const areas = headers.get(sheet)
    if (areas === undefined) headers.set(sheet, [a])
    else areas.push(a)
  }
  // a part that cannot be read keeps no header: the parts translated are refused when they are read
  const read = (name: string): { source: string, root: XmlElement } | undefined => {
    try {
      return parts.xml(name)
    } catch (err) {
      if (err instanceof PartError) return undefined
      throw err
    }
  }
  const book = read(workbook)
  if (book === undefined) return kept
  const root = book.root
  const bookRels = relationships(parts, workbook)
  const sheets = new Map<string, string>()
  /** The sheets by the position `localSheetId` counts. */
  const order: string[] = []
  const tables = new Map<string, { sheet: string, ref: Area }>()
  for (const s of elementsWhere(root, e => e.local === 'sheet')) {
    const id = relationshipId(s)
    const part = id === undefined ? undefined : bookRels.get(id)?.target
    order.push(s.attributes.name?.toLowerCase() ?? '')
    if (s.attributes.name === undefined || part === undefined || !parts.has(part)) continue
    sheets.set(s.attributes.name.toLowerCase(), part)
    for (const { type, target } of relationships(parts, part).values()) {
      const table = type.endsWith('/table') && parts.has(target) ? read(target)?.root : undefined
      if (table === undefined) continue
      const ref = area(table.attributes.ref ?? '')
      if (ref === undefined) continue
      for (const name of [table.attributes.name, table.attributes.displayName]) if (name !== undefined) tables.set(name.toLowerCase(), { sheet: part, ref })
      const rows = Number(table.attributes.headerRowCount ?? '1')
      if (rows > 0) add(part, head(ref, rows))
    }
  }
  const names = elementsWhere(root, e => e.local === 'definedName')
  /**
   * The header of a defined name (that of `sheet`, else the workbook's, else any sheet's): the
   * first row of its range (`'My sheet'!$A$1:$E$21`, `Sheet1!$A:$B`); of a formula, a dynamic
   * range (`OFFSET(Sheet1!$A$1,0,0,COUNTA(Sheet1!$A:$A),2)`) not evaluated here, the row of the
   * first cell it names, from that cell as many columns as the cache has fields.
   */
  const named = (name: string, sheet: string | undefined, fields: number): { sheet: string | undefined, ref: Area | undefined } | undefined => {
    const scope = sheet === undefined ? -1 : order.indexOf(sheet.toLowerCase())
    const candidates = names.filter(e => e.attributes.name?.toLowerCase() === name.toLowerCase())
    const d = candidates.find(e => e.attributes.localSheetId !== undefined && Number(e.attributes.localSheetId) === scope) ??
      candidates.find(e => e.attributes.localSheetId === undefined) ?? candidates[0]
    if (d === undefined) return undefined
    const formula = decodeXml(book.source.slice(d.openEnd, d.closeStart)).trim()
    const m = firstReference(formula)
    if (m === undefined) return undefined
    const range = area(m.ref)
    const plain = m.start === 0 && m.end === formula.length
    return {
      sheet: sheets.get(m.sheet.toLowerCase()),
      ref: range === undefined || plain ? range : { top: range.top, bottom: range.top, left: range.left, right: range.left + Math.max(fields, 1) - 1 }
    }
  }
  for (const [name, type] of types) {
    const cache = type === `${SML}pivotCacheDefinition+xml` && parts.has(name) ? read(name)?.root : undefined
    const from = cache === undefined ? undefined : elementsWhere(cache, e => e.local === 'worksheetSource')[0]
    // another workbook's range (r:id) is not this file's
    if (cache === undefined || from === undefined || relationshipId(from) !== undefined) continue
    const { name: source, ref, sheet } = from.attributes
    if (source !== undefined) {
      const table = tables.get(source.toLowerCase())
      const fields = elementsWhere(cache, e => e.local === 'cacheField').length
      const range = table === undefined ? named(source, sheet, fields) : undefined
      if (range !== undefined) add(range.sheet, range.ref === undefined ? undefined : head(range.ref))
    } else if (ref !== undefined && sheet !== undefined) {
      const a = area(ref)
      add(sheets.get(sheet.toLowerCase()), a === undefined ? undefined : head(a))
    }
  }
  const shared = new Set<number>()
  for (const [part, areas] of headers) {
    const sheetPart = read(part)
    if (sheetPart === undefined) continue
    const { source, root: sheet } = sheetPart
    // rows come in order; a file's that do not are put in order
    const rows: Array<{ r: XmlElement, row: number }> = []
    for (const r of elementsWhere(sheet, e => e.local === 'row')) rows.push({ r, row: Number(r.attributes.r ?? (rows.at(-1)?.row ?? 0) + 1) })
    rows.sort((a, b) => a.row - b.row)
    const index = new HeaderRows(areas)
    for (const { r, row } of rows) {
      const header = index.rows(row, row)
      let column = 0
      for (const c of r.children) {
        if (c.local !== 'c') continue
        const at = /^([A-Za-z]{1,3})\d*$/.exec(c.attributes.r ?? '')
        column = at === null ? column + 1 : columnNumber(at[1]!)
        if (!header(column, column)) continue
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
      read(name)?.root.children.filter(e => e.local === 'si').forEach((si, k) => { if (shared.has(k)) kept.add(si) })
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
    if (range === undefined) continue
    const areas = headers.get(range.sheet)
    if (areas === undefined) headers.set(range.sheet, [head(range.area)])
    else areas.push(head(range.area))
  }
  if (headers.size === 0) return kept
  for (const sheet of elementsWhere(root, e => ofTable(e, 'table'))) {
    const areas = headers.get(attribute(sheet, 'name') ?? '')
    if (areas === undefined) continue
    const index = new HeaderRows(areas)
    let row = 1
    // rows of this sheet, in header rows and groups too, not those of a table nested in a cell
    for (const r of elementsWhere(sheet, e => ofTable(e, 'table-row'), e => e !== sheet && ofTable(e, 'table'))) {
      const rows = repeats(attribute(r, 'number-rows-repeated'))
      const header = index.rows(row, row + rows - 1)
      let column = 1
      for (const c of r.children) {
        if (!ofTable(c, 'table-cell') && !ofTable(c, 'covered-table-cell')) continue
        const columns = repeats(attribute(c, 'number-columns-repeated'))
        if (header(column, column + columns - 1)) kept.add(c)
        column += columns
      }
      row += rows
    }
  }
  return kept
}
