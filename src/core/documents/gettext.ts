/**
 * text/x-gettext-translation (gettext PO), read and written by gettext-parser: each entry's
 * msgid (and msgid_plural) is translated into its msgstr.
 *
 * - Which entries: those whose msgstr is empty (any form), and fuzzy ones. An entry whose every
 *   msgstr form is filled and that is not fuzzy is a finished translation and is kept as it is,
 *   where it is one into the target read for (`target`): in a catalog whose `Language` names
 *   another language (a Polish catalog translated into Spanish), or a plural with other than the
 *   target's number of forms, it is translated from its msgid like an empty one, so that the
 *   catalog is the target's throughout and its plurals agree with the header (msgfmt -c).
 *   A fuzzy entry is translated anew from its msgid and stays fuzzy (its flag and `#|` previous
 *   msgid kept), so a reviewer still sees it. Obsolete (`#~`) entries are kept, not translated.
 * - Plurals: msgstr[0..n-1] for the target language's n forms, with the `Plural-Forms` header
 *   written, both from the plural-forms package (gettext's formulas for the CLDR plural rules):
 *   the form that n = 1 takes gets the translated msgid, every other the translated
 *   msgid_plural (a language with one form gets msgid_plural). A language it does not know keeps
 *   the file's own `Plural-Forms` (two forms when it has none).
 * - Headers: `Language` set to the target (`pt-BR` is written `pt_BR`), `Content-Type` to UTF-8
 *   where it names another charset (the value is Unicode text); the rest kept, each in its line.
 * - The file changes only where it was translated: the msgstr lines of the entries translated
 *   (and the header's) are written anew in place, long strings folded at spaces to 76 columns,
 *   and every other line (comments in their order, msgctxt, entry order, line ends) is copied
 *   byte for byte; a msgstr keyword on a line of its own (its string on the lines after, as
 *   msgfmt reads it) is written so again. A file whose entries cannot be found line by line (a
 *   key repeated) is written anew by gettext-parser instead.
 * - ICU messages in a msgid (`{count, plural, one {# file} other {# files}}`) have each
 *   sub-message translated and their syntax kept (core/documents/icu.ts).
 * - `domain "name"` directives (entries after one belong to that domain, as msgfmt reads them) are
 *   kept as written: each domain's entries are read as a catalog of their own, its header set
 *   where it has one (added where missing only to the entries before the first directive, as a
 *   file's is; a domain written anew by gettext-parser gets one, as such a file does).
 * - Format strings: an entry flagged `c-format`, `objc-format`, `php-format`, `python-format` or
 *   `python-brace-format` has its conversions (`%s`, `%1$d`, `%(name)s`, `{name}`) sent as tokens
 *   that come back in place, whatever `preserve_placeholders` says.
 * - Without a target (substitute, edit: same-language work) the result is written into msgstr
 *   the same way and the headers stay.
 * - Finished entries are read as `finished` says (segment.ts): kept out (translation), or by their
 *   msgid (detection, analysis). Edit and substitution (`translation`) read every entry holding a
 *   translation, fuzzy ones too, by its msgstr forms, each written back only where it changed (a
 *   translator's text corrected in place, flags untouched); an entry with an empty msgstr is
 *   neither read nor written (its msgid is no translation).
 */
import { po, type GetTextTranslation, type GetTextTranslations } from 'gettext-parser'
import pluralForms from 'plural-forms'
import { invalidField, type FieldPath } from '../../errors.js'
import { baseLanguage } from '../languages.js'
import { alignText } from './align.js'
import { RunBuilder, type TextFormat } from './run.js'
import { segmentMessageRun } from './icu.js'
import type { SegmentDraft } from './segment-run.js'
import { stringDocument, type StringDocument } from './skeleton.js'
import type { FinishedEntries } from './segment.js'

const plainFormat: TextFormat = { escape: text => text }

/**
 * What a line of a PO file may be: blank, a comment, a keyword with its string (msgfmt needs no
 * space between them: `msgid"a"`), a keyword alone (its string on the lines after, as msgfmt
 * reads it), a `domain` directive, or a string continuing a keyword's.
 */
const PO_LINE = /^[ \t]*(?:#.*|(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?|domain)(?:[ \t]*".*")?[ \t]*|".*"[ \t]*)?\r?$/

/** Conversions of the format-string flags gettext's tools check. */
const FORMATS: Record<string, RegExp> = {
  'c-format': /%(?:%|(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspnCS]|<PRI\w+>)/g,
  'objc-format': /%(?:%|(?:\d+\$)?[-+ 0#']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGaAcspnCS@])/g,
  'php-format': /%(?:%|(?:\d+\$)?[-+ 0]*(?:'.)?-?\d*(?:\.\d+)?[bcdeEfFgGosuxX])/g,
  'python-format': /%(?:%|(?:\([^)]*\))?[-+ 0#]*(?:\d+|\*)?(?:\.(?:\d+|\*))?[diouxXeEfFgGcrsa])/g,
  'python-brace-format': /\{\{|\}\}|\{[^{}]*\}/g
}

function flagsOf (entry: GetTextTranslation): string[] {
  return (entry.comments?.flag ?? '').split(/[,\s]+/).filter(Boolean)
}

/** The segment drafts of one msgid: each line a run; a format flag's conversions are tokens. */
function textDrafts (source: string, locale: string, conversions: RegExp | undefined): SegmentDraft[] {
  const drafts: SegmentDraft[] = []
  let start = 0
  const line = (end: number): void => {
    if (end <= start) return
    const run = new RunBuilder()
    const text = (from: number, to: number): void => {
      if (to > from) run.push({ kind: 'text', start: from, end: to, text: source.slice(from, to), offsets: alignText(source.slice(from, to), source, from, to, { escapes: false }) })
    }
    let at = start
    if (conversions !== undefined) {
      for (const m of source.slice(start, end).matchAll(conversions)) {
        text(at, start + m.index)
        run.push({ kind: 'token', start: start + m.index, end: start + m.index + m[0].length, weak: false, breaks: false })
        at = start + m.index + m[0].length
      }
    }
    text(at, end)
    drafts.push(...segmentMessageRun(run.take(), plainFormat, locale))
  }
  for (const m of source.matchAll(/\r\n|\n|\r/g)) {
    line(m.index)
    start = m.index + m[0].length
  }
  line(source.length)
  return drafts
}

/** The language tag as PO's Language header writes it (ll_CC). */
function poLanguage (tag: string): string {
  return tag.replaceAll('-', '_')
}

/** The plural forms of a language, or undefined when plural-forms does not know it. */
function pluralsOf (tag: string): { count: number, one: number, header: string } | undefined {
  const parts = tag.split('-')
  const candidates = [parts.join('_'), parts[0]!.toLowerCase()]
  const lang = candidates.find(c => pluralForms.hasLang(c))
  if (lang === undefined) return undefined
  const count = Number(pluralForms.getNPlurals(lang))
  const pick = pluralForms.getPluralFunc(lang) as unknown as (n: number, forms: number[]) => number
  const one = pick(1, Array.from({ length: count }, (_, i) => i))
  return { count, one, header: pluralForms.getPluralFormsHeader(lang).replace(/^nplurals\s*=\s*(\d+);\s*plural\s*=\s*/, 'nplurals=$1; plural=').replace(/;?\s*$/, ';') }
}

/** gettext's script modifiers (`sr@latin`, `uz@cyrillic`) as BCP 47 scripts. */
const SCRIPT_MODIFIERS: Readonly<Record<string, string>> = { latin: 'Latn', cyrillic: 'Cyrl' }

/** A language and the script it is written in (`sr-Cyrl`, `zh-Hant`: the likely one where none is named), or undefined where the tag is none. */
function writtenLanguage (tag: string, options: Intl.LocaleOptions = {}): string | undefined {
  try {
    const locale = new Intl.Locale(tag, options).maximize()
    return `${locale.language}-${locale.script ?? ''}`
  } catch {
    return undefined
  }
}

/**
 * Whether a `Language` header (`pl`, `pt_BR`, `sr@latin`, `zh_TW`) names another language than the
 * tag, or the same in another script (a Cyrillic Serbian catalog is no Latin Serbian one); an
 * empty one names none.
 */
function otherLanguage (header: string | undefined, tag: string): boolean {
  const [name = '', modifier = ''] = (header ?? '').trim().split('.')[0]!.split('@')
  const [language = '', region] = name.split(/[-_]/)
  if (language === '') return false
  const script = SCRIPT_MODIFIERS[modifier.toLowerCase()]
  const written = writtenLanguage(language, { ...(region === undefined || !/^(?:[A-Za-z]{2}|\d{3})$/.test(region) ? {} : { region }), ...(script === undefined ? {} : { script }) })
  const target = writtenLanguage(tag)
  return written === undefined || target === undefined ? language.toLowerCase() !== baseLanguage(tag) : written !== target
}

/** nplurals of a `Plural-Forms` header, or undefined. */
function headerCount (header: string | undefined): number | undefined {
  const m = /nplurals\s*=\s*(\d+)/.exec(header ?? '')
  return m === null ? undefined : Math.min(Number(m[1]), 10)
}

/** How many msgstr forms a plural is written with: the target's, else the file's `Plural-Forms` (two without one). */
function formsFor (target: string | undefined, header: string | undefined): number {
  return (target === undefined ? undefined : pluralsOf(target)?.count) ?? headerCount(header) ?? 2
}

function syntaxError (source: string, path: () => FieldPath): Error | undefined {
  let number = 0
  // a keyword alone and its line: its string must come next, blank lines aside (msgfmt's syntax error otherwise)
  let alone: { keyword: string, number: number } | undefined
  // a domain's name is one string: none continues it
  let domain = false
  const noString = ({ keyword, number }: { keyword: string, number: number }): Error =>
    invalidField(path(), `line ${number}: expected a quoted string after ${keyword}, on its line or the next`)
  for (const line of source.split('\n')) {
    number++
    const text = line.replace(/\r$/, '').trim()
    if (domain && text !== '') {
      if (text.startsWith('"')) return invalidField(path(), `line ${number}: a domain's name is one quoted string, not continued on the next line`)
      domain = false
    }
    if (alone !== undefined && text !== '') {
      if (!text.startsWith('"')) return noString(alone)
      domain = alone.keyword === 'domain'
      alone = undefined
    }
    // msgfmt reads `domain TheDomain1` (Okapi's test files) as an unknown keyword
    if (/^domain\b(?![ \t]*"|[ \t]*$)/.test(text)) return noString({ keyword: 'domain', number })
    if (!PO_LINE.test(line)) {
      return invalidField(path(), `line ${number}: expected a comment, a keyword (msgctxt, msgid, msgid_plural, msgstr, msgstr[N], domain) and its quoted string, or a quoted string`)
    }
    const keyword = KEYWORD.exec(text) ?? DOMAIN.exec(text)
    if (keyword !== null && keyword[2] === undefined) alone = { keyword: keyword[1]!, number }
    else if (keyword?.[1] === 'domain') domain = true
  }
  return alone === undefined ? undefined : noString(alone)
}

/** Where an entry's msgstr lines are: lines [start, end) of the file; `alone` when its first msgstr keyword stands on a line of its own. */
interface MsgstrLines {
  start: number
  end: number
  alone: boolean
}

/** A keyword and its string (none when it stands alone, its string on the lines after). */
const KEYWORD = /^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)(?:[ \t]*"(.*)")?[ \t]*$/
/** A `domain` directive: the entries after it are that domain's (msgfmt writes each domain's .mo). */
const DOMAIN = /^(domain)(?:[ \t]*"(.*)")?[ \t]*$/
const CONTINUATION = /^"(.*)"[ \t]*$/

/** A PO string's content as gettext-parser reads it (`\t`, `\n`, `\r`; any other escaped character is itself). */
function unquote (raw: string): string {
  return raw.replace(/\\([\s\S])/g, (_, c: string) => c === 't' ? '\t' : c === 'n' ? '\n' : c === 'r' ? '\r' : c)
}

/** The key gettext-parser files an entry under. */
const keyOf = (msgctxt: string | undefined, msgid: string): string => `${msgctxt ?? ''}\u0004${msgid}`

/**
 * Where each entry's msgstr lines are, by its key; undefined when a key repeats or an entry
 * cannot be told apart (the file is then written anew by gettext-parser).
 */
function msgstrLines (lines: readonly string[]): Map<string, MsgstrLines> | undefined {
  const found = new Map<string, MsgstrLines>()
  let entry: { msgctxt?: string, msgid?: string, str?: MsgstrLines } | undefined
  let field = ''
  // a keyword alone waits for its string: a blank line before it does not end the entry
  let waiting = false
  const close = (): boolean => {
    if (entry?.msgid !== undefined && entry.str !== undefined) {
      const key = keyOf(entry.msgctxt, entry.msgid)
      if (found.has(key)) return false
      found.set(key, entry.str)
    }
    entry = undefined
    return true
  }
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.replace(/\r$/, '').trim()
    if (line === '' && waiting) continue
    if (line === '' || line.startsWith('#')) {
      if (entry?.str !== undefined && !close()) return undefined
      field = ''
      continue
    }
    const keyword = KEYWORD.exec(line)
    if (keyword !== null) {
      field = keyword[1]!
      waiting = keyword[2] === undefined
      const value = unquote(keyword[2] ?? '')
      if (field === 'msgctxt' || (field === 'msgid' && entry?.msgid !== undefined)) {
        if (!close()) return undefined
      }
      entry ??= {}
      if (field === 'msgctxt') entry.msgctxt = value
      else if (field === 'msgid') entry.msgid = value
      else if (field.startsWith('msgstr')) {
        if (entry.str === undefined) entry.str = { start: n, end: n + 1, alone: waiting }
        else entry.str.end = n + 1
      }
      continue
    }
    const more = CONTINUATION.exec(line)
    if (more === null || entry === undefined) return undefined
    waiting = false
    if (field === 'msgctxt') entry.msgctxt += unquote(more[1]!)
    else if (field === 'msgid') entry.msgid += unquote(more[1]!)
    else if (field.startsWith('msgstr') && entry.str !== undefined) entry.str.end = n + 1
  }
  return close() ? found : undefined
}

/**
 * A keyword and its string as PO lines: escaped, a line per `\n`, long lines folded at spaces to
 * 76 columns (unless `fold` is false); the keyword on a line of its own when `alone`.
 */
function poString (keyword: string, value: string, fold = true, alone = false): string[] {
  const escaped = value.replace(/[\\"\t\r\n]/g, c => c === '\\' ? '\\\\' : c === '"' ? '\\"' : c === '\t' ? '\\t' : c === '\r' ? '\\r' : '\\n\n')
  const pieces: string[] = []
  const width = fold ? 76 : Infinity
  for (const piece of escaped.split('\n')) {
    let at = 0
    for (let space = piece.lastIndexOf(' ', at + 75); piece.length - at > width && space > at; space = piece.lastIndexOf(' ', at + 75)) {
      pieces.push(piece.slice(at, space + 1))
      at = space + 1
    }
    if (at < piece.length || pieces.length === 0) pieces.push(piece.slice(at))
  }
  if (alone) return [keyword, ...pieces.map(p => `"${p}"`)]
  if (pieces.length === 1 && `${keyword} "${pieces[0]}"`.length <= 80) return [`${keyword} "${pieces[0]}"`]
  return [`${keyword} ""`, ...pieces.map(p => `"${p}"`)]
}

/** A header's text with each of `set` replaced in its line, or added at the end. */
function withHeaders (header: string, set: Record<string, string>): string {
  const lines = header.split('\n')
  if (lines.at(-1) === '') lines.pop()
  for (const [name, value] of Object.entries(set)) {
    const at = lines.findIndex(l => l.slice(0, name.length + 1).toLowerCase() === `${name.toLowerCase()}:`)
    if (at === -1) lines.push(`${name}: ${value}`)
    else lines[at] = `${name}: ${value}`
  }
  return lines.map(l => `${l}\n`).join('')
}

/** A gettext PO file as a string document; a 400 naming the line where it is not one. */
export function gettextDocument (source: string, locale: string, path: () => FieldPath, finishedRead: FinishedEntries = 'kept', target?: string): StringDocument {
  const bad = syntaxError(source, path)
  if (bad !== undefined) throw bad
  // the file cut at its domain directives (each kept as written, its string on the lines after where it stands alone)
  const catalogs: Array<{ start: number, end: number, line: number }> = []
  const directives: string[] = []
  let start = 0
  let line = 0
  let at = 0
  const lines = source.split('\n')
  for (let n = 0; n < lines.length; n++) {
    const domain = DOMAIN.exec(lines[n]!.replace(/\r$/, '').trim())
    if (domain !== null) {
      let last = n
      if (domain[2] === undefined) while (!lines[last]!.trim().startsWith('"')) last++
      const end = lines.slice(n, last + 1).reduce((sum, l) => sum + l.length + 1, at)
      catalogs.push({ start, end: at, line })
      directives.push(source.slice(at, end))
      start = end
      line = last + 1
      at = end
      n = last
      continue
    }
    at += lines[n]!.length + 1
  }
  if (catalogs.length === 0) return catalogDocument(source, locale, path, finishedRead, target, 0, true)
  catalogs.push({ start, end: source.length, line })
  const docs = catalogs.map((c, i) => {
    const text = source.slice(c.start, c.end)
    return catalogDocument(text, locale, path, finishedRead, target, c.line, i === 0 && /^[ \t]*msg/m.test(text))
  })
  return {
    segments: docs.flatMap(d => d.segments),
    rebuild: (translated, target) => {
      let k = 0
      return docs.map((doc, i) => {
        const own = translated.slice(k, k + doc.segments.length)
        k += own.length
        let text = doc.rebuild(own, target) as string
        // a catalog written anew by gettext-parser still ends its line before the next directive
        if (i < directives.length && text !== '' && !text.endsWith('\n')) text += '\n'
        return text + (directives[i] ?? '')
      }).join('')
    }
  }
}

/**
 * One domain's entries (the whole file where it has no domain directive) as a string document;
 * `target`: the language it is translated into, where known (its finished entries kept only where
 * they are translations into it); `line`: where they start in the file; `withHeader`: whether a
 * header is added where they have none.
 */
function catalogDocument (source: string, locale: string, path: () => FieldPath, finishedRead: FinishedEntries, target: string | undefined, line: number, withHeader: boolean): StringDocument {
  let table: GetTextTranslations
  try {
    try {
      table = po.parse(source, { validation: true })
    } catch (err) {
      // its validation also wants as many msgstr forms as the header's nplurals (1 without one):
      // a template or a file for another language is still a file to translate
      if (!/^Plural forms range error/.test((err as Error).message)) throw err
      table = po.parse(source)
    }
  } catch (err) {
    const { message, lineNumber } = err as { message: string, lineNumber?: number }
    const what = message.replace(/^Error parsing PO data: /, '').replace(/ at line \d+\./, '.')
    throw invalidField(path(), lineNumber === undefined ? what : `line ${lineNumber + line}: ${what}`)
  }
  const entries = Object.values(table.translations).flatMap(context => Object.values(context))
  // a catalog in another language holds translations into that one; a plural's forms are written for the target's count
  const foreign = target !== undefined && otherLanguage(table.headers?.Language, target)
  const forms = target === undefined ? undefined : formsFor(target, table.headers?.['Plural-Forms'])
  /** `read`: the entry's msgid (translated into its msgstr; a finished one's never written) or its msgstr forms (written back where one changed). */
  const work: Array<{ at: number, docs: StringDocument[], finished: boolean, read: 'msgid' | 'msgstr' }> = []
  entries.forEach((entry, at) => {
    if (entry.msgid === '' && (entry.msgctxt ?? '') === '') return
    const flags = flagsOf(entry)
    const finished = entry.msgstr.length > 0 && entry.msgstr.every(s => s !== '') && !flags.includes('fuzzy') &&
      !foreign && (forms === undefined || entry.msgid_plural === undefined || entry.msgstr.length === forms)
    if (finished && finishedRead === 'kept') return
    // edit and substitution work on the translations held, fuzzy drafts too: an entry with none is not theirs to fill
    if (finishedRead === 'translation' && entry.msgstr.every(s => s === '')) return
    const format = flags.find(f => Object.hasOwn(FORMATS, f))
    const read = finishedRead === 'translation' ? 'msgstr' : 'msgid'
    const texts = read === 'msgstr'
      ? entry.msgstr
      : entry.msgid_plural === undefined ? [entry.msgid] : [entry.msgid, entry.msgid_plural]
    work.push({ at, finished, read, docs: texts.map(t => stringDocument(t, textDrafts(t, locale, format === undefined ? undefined : FORMATS[format]))) })
  })
  const segments = work.flatMap(w => w.docs.flatMap(d => d.segments))
  return {
    segments,
    rebuild: (translated, target) => {
      if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      if (target === undefined && translated.every((t, i) => t === segments[i])) return source
      const out = structuredClone(table)
      const plurals = target === undefined ? undefined : pluralsOf(target)
      const count = formsFor(target, out.headers?.['Plural-Forms'])
      const one = plurals?.one ?? (count > 1 ? 0 : -1)
      // the clone has the same entries in the same order: walk both together
      const clones = Object.values(out.translations).flatMap(context => Object.values(context))
      /** The entries whose msgstr is written. */
      const written: number[] = []
      let k = 0
      for (const { at, docs, finished, read } of work) {
        const texts = docs.map(doc => {
          const own = translated.slice(k, k + doc.segments.length)
          k += own.length
          return doc.rebuild(own)
        })
        const clone = clones[at]!
        if (read === 'msgstr') {
          // its forms are written back where one changed, its flags (fuzzy) untouched
          if (texts.some((t, i) => t !== clone.msgstr[i])) {
            clone.msgstr = texts
            written.push(at)
          }
          continue
        }
        // a finished translation read by its msgid stays
        if (finished) continue
        written.push(at)
        clone.msgstr = texts.length === 1
          ? [texts[0]!]
          : Array.from({ length: count }, (_, i) => i === one && count > 1 ? texts[0]! : texts[1]!)
      }
      const set: Record<string, string> = {}
      if (target !== undefined) {
        set.Language = poLanguage(target)
        // the value is Unicode text: a file in another charset (or a template's CHARSET) is written as UTF-8
        if (!/charset\s*=\s*"?utf-?8\b/i.test(out.headers?.['Content-Type'] ?? '')) set['Content-Type'] = 'text/plain; charset=UTF-8'
        // a file without plural entries is left without the header it does not need
        if (plurals !== undefined && (out.headers?.['Plural-Forms'] !== undefined || work.some(w => w.docs.length > 1))) set['Plural-Forms'] = plurals.header
      }
      const spliced = splice(clones, written, set)
      if (spliced !== undefined) return spliced
      if (target !== undefined) {
        out.headers = { ...out.headers, ...set }
        out.charset = 'utf-8'
      }
      return po.compile(out, { foldLength: 76 }).toString('utf8')
    }
  }

  /**
   * The source with only the msgstr lines of the entries translated (and the header's) written
   * anew, so a file kept in version control changes only there; undefined when the entries
   * cannot be found line by line.
   */
  function splice (clones: readonly GetTextTranslation[], written: readonly number[], set: Record<string, string>): string | undefined {
    const lines = source.split('\n')
    const where = msgstrLines(lines)
    if (where === undefined) return undefined
    const cr = source.includes('\r\n') ? '\r' : ''
    const edits: Array<{ at: MsgstrLines, lines: string[] }> = []
    for (const at of written) {
      const clone = clones[at]!
      const range = where.get(keyOf(clone.msgctxt, clone.msgid))
      if (range === undefined) return undefined
      const written = clone.msgid_plural === undefined
        ? poString('msgstr', clone.msgstr[0] ?? '', true, range.alone)
        : clone.msgstr.flatMap((s, i) => poString(`msgstr[${i}]`, s, true, range.alone))
      edits.push({ at: range, lines: written })
    }
    let head = ''
    if (Object.keys(set).length > 0) {
      const header = where.get(keyOf(undefined, ''))
      const text = withHeaders(table.translations['']?.['']?.msgstr[0] ?? '', set)
      if (header !== undefined) edits.push({ at: header, lines: poString('msgstr', text, false, header.alone) })
      else if (withHeader) head = ['msgid ""', ...poString('msgstr', text, false), '', ''].join(`${cr}\n`)
    }
    edits.sort((a, b) => a.at.start - b.at.start)
    const out: string[] = []
    let n = 0
    for (const edit of edits) {
      out.push(...lines.slice(n, edit.at.start), ...edit.lines.map(l => l + cr))
      n = edit.at.end
    }
    out.push(...lines.slice(n))
    return head + out.join('\n')
  }
}
