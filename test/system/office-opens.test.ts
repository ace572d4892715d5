/**
 * Translated office files open in LibreOffice (Debian's, headless): real files as other programs
 * wrote them (Word's DOCX, python-pptx's PPTX, an XLSX, LibreOffice's ODT, and ODS and ODP that
 * LibreOffice itself writes from the XLSX and PPTX) are translated en->es through Apertium, then
 * LibreOffice reads each source and each translation and writes it out as flat OpenDocument. Its
 * reading is the check: the same paragraphs and cells as the source, the prose translated, numbers
 * and dates as they were.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SaxesParser } from 'saxes'
import { formatApps } from '../helpers/format-apps.js'
import { DOCX, ODP, ODS, ODT, PPTX, XLSX } from '../helpers/office.js'

const { post } = formatApps()
const SOFFICE = '/usr/bin/soffice'
const DATA = new URL('../data/office/', import.meta.url)

let dir: string
beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'office-opens-')) })
afterAll(() => { rmSync(dir, { recursive: true, force: true }) })

/** LibreOffice converts `files` (in dir) to `format`; answers the converted files' paths. */
function convert (files: string[], format: string): string[] {
  execFileSync(SOFFICE, [`-env:UserInstallation=file://${join(dir, 'profile')}`, '--headless', '--convert-to', format, '--outdir', join(dir, format), ...files.map(f => join(dir, f))], { stdio: 'pipe', timeout: 120_000 })
  return files.map(f => join(dir, format, f.replace(/\.[^.]+$/, `.${format}`)))
}

/** The text of each paragraph and heading in a flat OpenDocument's body (frames and cells included), read with saxes. */
function paragraphs (flat: string): string[] {
  const parser = new SaxesParser({ xmlns: false })
  const out: string[] = []
  let inBody = false
  let depth = 0
  let current = ''
  parser.on('opentag', tag => {
    if (tag.name === 'office:body') inBody = true
    if (inBody && (tag.name === 'text:p' || tag.name === 'text:h')) { if (depth++ === 0) current = '' }
    if (depth > 0 && tag.name === 'text:s') current += ' '
  })
  parser.on('text', text => { if (depth > 0) current += text })
  parser.on('closetag', tag => {
    if (tag.name === 'office:body') inBody = false
    if (inBody && (tag.name === 'text:p' || tag.name === 'text:h') && --depth === 0) out.push(current.trim())
  })
  parser.write(flat).close()
  return out.filter(p => p !== '')
}

const FILES: Array<{ name: string, mime: string, flat: string }> = [
  { name: 'mammoth-tables.docx', mime: DOCX, flat: 'fodt' },
  { name: 'pandoc-textMixedStyles.odt', mime: ODT, flat: 'fodt' },
  { name: 'tealeg-merged_cells.xlsx', mime: XLSX, flat: 'fods' },
  { name: 'python-pptx-tbl-cell.pptx', mime: PPTX, flat: 'fodp' },
  { name: 'tealeg-merged_cells.ods', mime: ODS, flat: 'fods' },
  { name: 'python-pptx-tbl-cell.odp', mime: ODP, flat: 'fodp' }
]

describe('translated office files open in LibreOffice', () => {
  it('every format: LibreOffice reads the translation with the source\'s paragraphs and cells, prose translated, numbers kept', async () => {
    for (const { name } of FILES.slice(0, 4)) copyFileSync(new URL(name, DATA), join(dir, name))
    // ODS and ODP as LibreOffice writes them
    convert(['tealeg-merged_cells.xlsx'], 'ods')
    convert(['python-pptx-tbl-cell.pptx'], 'odp')
    copyFileSync(join(dir, 'ods', 'tealeg-merged_cells.ods'), join(dir, 'tealeg-merged_cells.ods'))
    copyFileSync(join(dir, 'odp', 'python-pptx-tbl-cell.odp'), join(dir, 'python-pptx-tbl-cell.odp'))

    const translations: Array<{ source: string, translation: string, flat: string }> = []
    for (const { name, mime, flat } of FILES) {
      const { status, body } = await post('/language/translate', { document: { value: readFileSync(join(dir, name)).toString('base64'), mime_type: mime }, source: 'en', targets: ['es'] })
      expect(status, `${name}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200)
      const translation = name.replace(/(\.[^.]+)$/, '.es$1')
      writeFileSync(join(dir, translation), Buffer.from(body.results.es.value, 'base64'))
      translations.push({ source: name, translation, flat })
    }
    for (const flat of ['fodt', 'fods', 'fodp']) {
      const these = translations.filter(t => t.flat === flat)
      const sources = convert(these.map(t => t.source), flat)
      const translated = convert(these.map(t => t.translation), flat)
      these.forEach(({ source }, i) => {
        const before = paragraphs(readFileSync(sources[i]!, 'utf8'))
        const after = paragraphs(readFileSync(translated[i]!, 'utf8'))
        expect(before.length, `${source}: LibreOffice read no text`).toBeGreaterThan(0)
        expect(after.length, `${source}: paragraphs and cells`).toBe(before.length)
        const prose = before.map((p, k) => [p, after[k]!] as const).filter(([p]) => /[a-z]{3}/i.test(p))
        const changed = prose.filter(([p, q]) => p !== q)
        expect(changed.length / prose.length, `${source}: ${JSON.stringify(prose)}`).toBeGreaterThanOrEqual(0.5)
        // what has no words (numbers, dates, codes) is as it was
        before.forEach((p, k) => { if (!/[a-z]/i.test(p)) expect(after[k], `${source} #${k}`).toBe(p) })
      })
    }
  }, 240_000)
})
