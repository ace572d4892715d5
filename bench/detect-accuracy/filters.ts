/** Cleaning and rejection rules that keep only natural-language strings in the corpus. */

// printf/ICU/Python/shell placeholders; removed before judging how much language a string holds
const PLACEHOLDER = /%(?:\d+\$)?[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|L|q|j|z|t|I64)?[diouxXeEfFgGaAcspn%]|%\(\w+\)[sd]|%\d+|\{\w*\}|\$\{\w+\}|\$\w+|%\w+%/g
const TAG = /<[^<>]{1,200}>/g
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** A catalog/manual string reduced to the text a user reads: no markup, mnemonics or repeated whitespace. */
export function cleanText (raw: string): string {
  let s = raw
  if (/<[a-zA-Z/][^<>]*>/.test(s)) {
    s = s.replace(TAG, ' ').replace(/&(#x?[0-9a-fA-F]+|\w+);/g, (m, name: string) => decodeEntity(name) ?? m)
  } else {
    // KDE marks accelerators with "&", GTK with "_"; CJK catalogs append "(_F)"
    s = s.replace(/\s*[(（][_&][\p{L}\p{N}][)）]/gu, '').replace(/&(?=\p{L})/gu, '')
    if ((s.match(/_/g) ?? []).length === 1) s = s.replace(/_(?=\p{L})/u, '')
  }
  return s.replace(/\s+/g, ' ').trim()
}

function decodeEntity (name: string): string | undefined {
  if (name.startsWith('#x')) return String.fromCodePoint(parseInt(name.slice(2), 16))
  if (name.startsWith('#')) return String.fromCodePoint(parseInt(name.slice(1), 10))
  return ENTITIES[name]
}

/** Why a cleaned string is not natural language, or undefined when it is. */
export function rejection (text: string): string | undefined {
  if (/https?:|www\.|\w@\w+\.\w/.test(text)) return 'url or email'
  // also "Region/City" time-zone names and "a/b" option lists: names, not sentences
  if (/(^|[\s"'(=])(~|\.{1,2})?\/[\w.-]+/.test(text) || /[\p{L}\p{N}]\/[\p{L}\p{N}]/u.test(text) || /[A-Za-z]:\\/.test(text)) return 'path'
  if (/\w_\w/.test(text) || /\b[a-z]+[A-Z]\w*/.test(text) || /\w\.\w+\(/.test(text)) return 'identifier'
  if (/[A-Za-z]/.test(text) && !/\p{Ll}/u.test(text) && !/[\p{Lo}]/u.test(text)) return 'all caps'
  if (/[<>{}[\]|=\\]/.test(text)) return 'markup or code'
  if (/\S\s{3,}\S/.test(text)) return 'layout'
  const bare = text.replace(PLACEHOLDER, '')
  const letters = count(bare, /\p{L}/gu)
  if (letters < 5) return 'format string only'
  const visible = count(bare, /\S/g)
  if (letters / visible < 0.75) return 'mostly numbers or punctuation'
  return undefined
}

function count (s: string, re: RegExp): number {
  return s.match(re)?.length ?? 0
}

/** The key two strings share when they are the same text for a reader. */
export function dedupeKey (text: string): string {
  return text.normalize('NFC').toLowerCase().replace(/[\s\p{P}]+/gu, ' ').trim()
}

/** Splits a paragraph longer than `max` characters into runs of whole sentences of at most `max`. */
export function sentenceRuns (paragraph: string, max: number): string[] {
  if ([...paragraph].length <= max) return [paragraph]
  const sentences = paragraph.split(/(?<=[.!?。！？])\s+|(?<=[。！？])/u)
  const runs: string[] = []
  let run = ''
  for (const sentence of sentences) {
    const joined = run === '' ? sentence : `${run} ${sentence}`
    if ([...joined].length <= max) {
      run = joined
    } else {
      if (run !== '') runs.push(run)
      run = [...sentence].length <= max ? sentence : ''
    }
  }
  if (run !== '') runs.push(run)
  return runs
}
