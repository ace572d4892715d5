/**
 * text/x-gettext-translation (gettext PO), read and written by gettext-parser: each entry's
 * msgid (and msgid_plural) is translated into its msgstr.
 *
 * - Which entries: those whose msgstr is empty (any form), and fuzzy ones. An entry whose every
 *   msgstr form is filled and that is not fuzzy is a finished translation and is kept as it is.
 *   A fuzzy entry is translated anew from its msgid and stays fuzzy (its flag and `#|` previous
 *   msgid kept), so a reviewer still sees it. Obsolete (`#~`) entries are kept, not translated.
 * - Plurals: msgstr[0..n-1] for the target language's n forms, with the `Plural-Forms` header
 *   written, both from the plural-forms package (gettext's formulas for the CLDR plural rules):
 *   the form that n = 1 takes gets the translated msgid, every other the translated
 *   msgid_plural (a language with one form gets msgid_plural). A language it does not know keeps
 *   the file's own `Plural-Forms` (two forms when it has none).
 * - Headers: `Language` set to the target (`pt-BR` is written `pt_BR`), `Content-Type` to UTF-8
 *   (the value is Unicode text); the rest kept.
 * - Comments, references, flags and msgctxt are kept; entries with a msgctxt are their own
 *   entries. gettext-parser writes the file anew: long strings folded at 76 columns, and entries
 *   grouped by msgctxt (the empty context first), each group in the file's order.
 * - Format strings: an entry flagged `c-format`, `objc-format`, `php-format`, `python-format` or
 *   `python-brace-format` has its conversions (`%s`, `%1$d`, `%(name)s`, `{name}`) sent as tokens
 *   that come back in place, whatever `preserve_placeholders` says.
 * - Without a target (substitute, edit: same-language work) the result is written into msgstr
 *   the same way and the headers stay.
 */
import { po, type GetTextTranslation, type GetTextTranslations } from 'gettext-parser'
import pluralForms from 'plural-forms'
import { invalidField, type FieldPath } from '../../errors.js'
import { alignText } from './align.js'
import { RunBuilder, type TextFormat } from './run.js'
import { segmentRun, type SegmentDraft } from './segment-run.js'
import { stringDocument, type StringDocument } from './skeleton.js'

const plainFormat: TextFormat = { escape: text => text }

/** What a line of a PO file may be: blank, a comment, a keyword with its string, or a string continuing one. */
const PO_LINE = /^[ \t]*(?:#.*|(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+".*"[ \t]*|".*"[ \t]*)?\r?$/

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
    drafts.push(...segmentRun(run.take(), plainFormat, locale))
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

/** nplurals of a `Plural-Forms` header, or undefined. */
function headerCount (header: string | undefined): number | undefined {
  const m = /nplurals\s*=\s*(\d+)/.exec(header ?? '')
  return m === null ? undefined : Math.min(Number(m[1]), 10)
}

function syntaxError (source: string, path: () => FieldPath): Error | undefined {
  let number = 0
  for (const line of source.split('\n')) {
    number++
    if (!PO_LINE.test(line)) {
      return invalidField(path(), `line ${number}: expected a comment, a keyword (msgctxt, msgid, msgid_plural, msgstr, msgstr[N]) with a quoted string, or a quoted string`)
    }
  }
  return undefined
}

/** A gettext PO file as a string document; a 400 naming the line where it is not one. */
export function gettextDocument (source: string, locale: string, path: () => FieldPath): StringDocument {
  const bad = syntaxError(source, path)
  if (bad !== undefined) throw bad
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
    throw invalidField(path(), lineNumber === undefined ? what : `line ${lineNumber}: ${what}`)
  }
  const entries = Object.values(table.translations).flatMap(context => Object.values(context))
  const work: Array<{ at: number, docs: StringDocument[] }> = []
  entries.forEach((entry, at) => {
    if (entry.msgid === '' && (entry.msgctxt ?? '') === '') return
    const flags = flagsOf(entry)
    const filled = entry.msgstr.length > 0 && entry.msgstr.every(s => s !== '')
    if (filled && !flags.includes('fuzzy')) return
    const format = flags.find(f => FORMATS[f] !== undefined)
    const texts = entry.msgid_plural === undefined ? [entry.msgid] : [entry.msgid, entry.msgid_plural]
    work.push({ at, docs: texts.map(t => stringDocument(t, textDrafts(t, locale, format === undefined ? undefined : FORMATS[format]))) })
  })
  const segments = work.flatMap(w => w.docs.flatMap(d => d.segments))
  return {
    segments,
    rebuild: (translated, target) => {
      if (translated.length !== segments.length) throw new Error(`expected ${segments.length} translated segments, got ${translated.length}`)
      if (target === undefined && translated.every((t, i) => t === segments[i])) return source
      const out = structuredClone(table)
      const plurals = target === undefined ? undefined : pluralsOf(target)
      const count = plurals?.count ?? headerCount(out.headers?.['Plural-Forms']) ?? 2
      const one = plurals?.one ?? (count > 1 ? 0 : -1)
      // the clone has the same entries in the same order: walk both together
      const clones = Object.values(out.translations).flatMap(context => Object.values(context))
      let k = 0
      for (const { at, docs } of work) {
        const texts = docs.map(doc => {
          const own = translated.slice(k, k + doc.segments.length)
          k += own.length
          return doc.rebuild(own)
        })
        const clone = clones[at]!
        clone.msgstr = texts.length === 1
          ? [texts[0]!]
          : Array.from({ length: count }, (_, i) => i === one && count > 1 ? texts[0]! : texts[1]!)
      }
      if (target !== undefined) {
        out.headers = { ...out.headers, Language: poLanguage(target), 'Content-Type': 'text/plain; charset=UTF-8' }
        if (plurals !== undefined) out.headers['Plural-Forms'] = plurals.header
        out.charset = 'utf-8'
      }
      return po.compile(out, { foldLength: 76 }).toString('utf8')
    }
  }
}
