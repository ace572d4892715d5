/**
 * The documentation holds together: the README stays a front door (at most 200 lines), and every
 * relative link in README.md, SECURITY.md and docs/*.md points to a file or folder of the
 * repository, and to a heading of that file when it names one (`#anchor`, as GitHub writes it).
 * Links inside code (fenced blocks, `inline code`) and to other sites are not followed.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const repo = join(import.meta.dirname, '..', '..')
const FILES = ['README.md', 'SECURITY.md', ...readdirSync(join(repo, 'docs')).filter(f => f.endsWith('.md')).map(f => `docs/${f}`)]

/** The file's lines outside fenced code blocks. */
function prose (markdown: string): string[] {
  let fenced = false
  return markdown.split('\n').filter(line => {
    if (/^\s*(```|~~~)/.test(line)) { fenced = !fenced; return false }
    return !fenced
  })
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function slug (heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

function anchors (file: string): Set<string> {
  return new Set(prose(readFileSync(file, 'utf8')).flatMap(line => {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)
    return m ? [slug(m[1]!)] : []
  }))
}

/** The relative link targets of a Markdown file, inline code left out. */
function links (markdown: string): string[] {
  const out: string[] = []
  for (const line of prose(markdown)) {
    for (const m of line.replace(/`[^`]*`/g, '``').matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!
      if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push(target)
    }
  }
  return out
}

describe('documentation', () => {
  it('README.md is a front door: at most 200 lines', () => {
    const lines = readFileSync(join(repo, 'README.md'), 'utf8').trimEnd().split('\n').length
    expect(lines).toBeLessThanOrEqual(200)
  })

  it('finds the links to check', () => {
    expect(FILES).toContain('docs/api.md')
    for (const file of ['README.md', 'docs/api.md', 'docs/operations.md']) expect(links(readFileSync(join(repo, file), 'utf8')).length, file).toBeGreaterThan(3)
    expect(links('See [a](docs/a.md#b), ![c](c.png "t"), `[d](e.md)` and [f](https://example.com).')).toEqual(['docs/a.md#b', 'c.png'])
    expect(slug('Behind a reverse proxy: `TRUST_PROXY`')).toBe('behind-a-reverse-proxy-trust_proxy')
    expect(slug('Processes (WORKERS)')).toBe('processes-workers')
  })

  it.each(FILES)('%s links only to files and headings that exist', (file) => {
    const broken: string[] = []
    for (const link of links(readFileSync(join(repo, file), 'utf8'))) {
      const [path = '', anchor] = link.split('#')
      const target = path === '' ? join(repo, file) : join(repo, dirname(file), decodeURI(path))
      if (relative(repo, target).startsWith('..') || !existsSync(target)) { broken.push(`${link} (no such file)`); continue }
      if (anchor !== undefined && statSync(target).isFile() && target.endsWith('.md') && !anchors(target).has(anchor)) broken.push(`${link} (no such heading)`)
    }
    expect(broken).toEqual([])
  })
})
