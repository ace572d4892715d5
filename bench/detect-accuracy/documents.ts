/** Paragraphs of the manuals shipped in Debian packages: roff manual pages and Mallard help pages. */
import { spawnSync } from 'node:child_process'
import { gunzipSync } from 'node:zlib'
import { readFileSync } from 'node:fs'

/** Paragraphs of a (gzipped) manual page, rendered by groff without line wrapping or hyphenation. */
export function manPageParagraphs (file: string): string[] {
  const raw = file.endsWith('.gz') ? gunzipSync(readFileSync(file)) : readFileSync(file)
  if (raw.subarray(0, 4).toString() === '.so ') return []
  const out = spawnSync('groff', ['-k', '-Tutf8', '-man', '-rLL=5000n', '-rHY=0', '-P-cbou'],
    { input: raw, encoding: 'utf8', maxBuffer: 64 << 20, timeout: 20_000 })
  if (out.status !== 0 || typeof out.stdout !== 'string') return []
  return paragraphs(out.stdout.split('\n').filter(line => /^ {7}\S/.test(line) || line.trim() === ''))
}

function paragraphs (lines: string[]): string[] {
  const found: string[] = []
  let current: string[] = []
  for (const line of lines) {
    if (line.trim() === '') {
      if (current.length > 0) found.push(current.join(' '))
      current = []
    } else {
      current.push(line.trim())
    }
  }
  if (current.length > 0) found.push(current.join(' '))
  // option lists and synopses start with a dash or the command name in bold; prose does not
  return found.filter(p => !p.startsWith('-'))
}

/** The text of every `<p>` of a Mallard/DocBook help page, inline markup removed. */
export function helpPageParagraphs (file: string): string[] {
  const xml = readFileSync(file, 'utf8')
  const found: string[] = []
  for (const match of xml.matchAll(/<p(?:\s[^>]*)?>([\s\S]*?)<\/p>/g)) {
    const inner = match[1] ?? ''
    // paragraphs holding code, commands or file names are not prose
    if (/<(code|cmd|file|input|output|screen|sys|var)\b/.test(inner)) continue
    found.push(`<p>${inner}</p>`)
  }
  return found
}
