/**
 * Real English text for the benches: the prose of Perl's own documentation as Debian ships it
 * (package perl-modules-5.x: an article on software localization, tutorials and FAQs), cut into
 * short sentences and into paragraphs. Nothing here is written for the bench.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

const PERL = '/usr/share/perl'

/** POD documents of perl-modules, relative to /usr/share/perl/<version>/; the localization article first. */
const DOCUMENTS = [
  'Locale/Maketext/TPJ13.pod',
  'Locale/Maketext.pod',
  'Test/Tutorial.pod',
  'ExtUtils/MakeMaker/FAQ.pod',
  'IO/Compress/FAQ.pod',
  'TAP/Harness/Beyond.pod',
  'Encode/Supported.pod',
  'Net/libnetFAQ.pod'
]

/** The documentation directory of the installed Perl (e.g. /usr/share/perl/5.36.0), installing `perl` if needed. */
function perlDir (): string {
  const find = (): string | undefined => existsSync(PERL)
    ? readdirSync(PERL).filter(d => /^\d+\.\d+\.\d+$/.test(d)).map(d => join(PERL, d)).find(d => existsSync(join(d, DOCUMENTS[0]!)))
    : undefined
  let dir = find()
  if (dir === undefined) {
    console.log('installing perl (its documentation is the bench text) ...')
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'perl'], { stdio: 'inherit' })
    dir = find()
  }
  if (dir === undefined) throw new Error(`no ${DOCUMENTS[0]} under ${PERL}/<version>/ even after installing perl`)
  return dir
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', verbar: '|', sol: '/', quot: '"', amp: '&' }

/** The text of a POD paragraph without its formatting codes (B<bold>, C<< code >>, L<text|link>, E<gt>). */
function podText (paragraph: string): string {
  let text = paragraph
  // C<< ... >> with any number of brackets, innermost lengths first
  for (let n = 4; n >= 2; n--) {
    const open = '<'.repeat(n)
    const close = '>'.repeat(n)
    let at = text.search(new RegExp(`[A-Z]${open}\\s`))
    while (at >= 0) {
      const end = text.indexOf(close, at + n + 2)
      if (end < 0) break
      text = text.slice(0, at) + text.slice(at + 1 + n, end).trim() + text.slice(end + n)
      at = text.search(new RegExp(`[A-Z]${open}\\s`))
    }
  }
  let before
  do {
    before = text
    text = text
      .replace(/E<(\w+)>/g, (_, name: string) => ENTITIES[name] ?? '')
      .replace(/L<([^<>|]*)\|[^<>]*>/g, '$1')
      .replace(/[A-Z]<([^<>]*)>/g, '$1')
  } while (text !== before)
  return text.replace(/\s+/g, ' ').trim()
}

/** Prose paragraphs of a POD document: no commands, no verbatim (indented) code, no =begin/=for blocks. */
function podParagraphs (pod: string): string[] {
  const out: string[] = []
  let skipping = false
  for (const block of pod.split(/\n[ \t]*\n/)) {
    const trimmed = block.replace(/^\n+/, '')
    if (/^=begin\b/.test(trimmed)) skipping = true
    if (skipping) {
      if (/^=end\b/m.test(trimmed)) skipping = false
      continue
    }
    if (trimmed === '' || /^[=#\s]/.test(trimmed)) continue
    out.push(podText(trimmed))
  }
  return out
}

const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'cf', 'Mr', 'Mrs', 'Dr', 'St', 'No'])

/** Sentences of a paragraph: a split after . ! ? (and a closing quote) before a capital, not after an initial or abbreviation. */
function sentences (paragraph: string): string[] {
  const out: string[] = []
  let start = 0
  for (const m of paragraph.matchAll(/[.!?]["')]?\s+(?=["(]?[A-Z])/g)) {
    const before = paragraph.slice(start, m.index + 1)
    const lastWord = /(\S+)\.$/.exec(before)?.[1] ?? ''
    if (/^[A-Z]$/.test(lastWord) || ABBREVIATIONS.has(lastWord)) continue
    out.push(paragraph.slice(start, m.index + m[0].trimEnd().length))
    start = m.index + m[0].length
  }
  out.push(paragraph.slice(start))
  return out.map(s => s.trim()).filter(Boolean)
}

const words = (text: string): number => text.split(/\s+/).filter(Boolean).length

/** Reads like a sentence rather than code: starts with a capital, ends with . ! or ?, no sigils, paths or brackets. */
function isProse (sentence: string): boolean {
  return /^["(]?[A-Z][a-z]/.test(sentence) &&
    /[a-z0-9)][.!?]["')]?$/.test(sentence) &&
    !/[$@%{}[\]<>=_\\/|#*]|::|->/.test(sentence) &&
    (sentence.match(/"/g) ?? []).length % 2 === 0 &&
    (sentence.match(/\(/g) ?? []).length === (sentence.match(/\)/g) ?? []).length
}

export interface Corpus {
  /** where the text comes from */
  source: string
  /** distinct sentences of 4-15 words, in document order */
  sentences: string[]
  /** prose paragraphs of 20-60 words, in document order */
  paragraphs: string[]
}

/** The bench text: short sentences and paragraphs of Perl's English documentation. */
export function englishCorpus (): Corpus {
  const dir = perlDir()
  const paragraphs = DOCUMENTS.filter(d => existsSync(join(dir, d)))
    .flatMap(d => podParagraphs(readFileSync(join(dir, d), 'utf8')))
  const short = [...new Set(paragraphs.flatMap(sentences).filter(s => words(s) >= 4 && words(s) <= 15 && isProse(s)))]
  return {
    source: `${dir}/{${DOCUMENTS.join(',')}} (Debian package perl-modules)`,
    sentences: short,
    paragraphs: paragraphs.filter(p => words(p) >= 20 && words(p) <= 60)
  }
}

/** Whitespace-separated words of a text. */
export function wordCount (text: string): number {
  return words(text)
}
