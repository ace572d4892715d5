import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { parseModeName, pipelineStages, readModes, type ModeScan } from '../../../../src/providers/apertium/modes.js'
import { directPairs, findChain, listPairs, type DirectPairs } from '../../../../src/providers/apertium/chains.js'

const MODES_DIR = '/usr/share/apertium/modes'

describe('mode files', () => {
  it('parses mode names of two languages only', () => {
    expect(parseModeName('eng-cat_valencia')).toEqual({ fromCode: 'eng', toCode: 'cat', toVariant: 'valencia' })
    expect(parseModeName('oc_aran-es')).toEqual({ fromCode: 'oc', fromVariant: 'aran', toCode: 'es' })
    expect(parseModeName('eco-es-fr')).toBeUndefined()
    expect(parseModeName('eo-en-compounds')).toBeUndefined()
    expect(parseModeName('Cyrl-Latn')).toBeUndefined()
  })

  it('splits a pipeline into stages and words, honouring quotes', () => {
    expect(pipelineStages("lt-proc -z '/a b/x.bin' | apertium-tagger -g $2 \"/c/d.prob\" | lt-proc $1 /e/f.bin"))
      .toEqual([['lt-proc', '-z', '/a b/x.bin'], ['apertium-tagger', '-g', '$2', '/c/d.prob'], ['lt-proc', '$1', '/e/f.bin']])
  })

  it('skips a mode whose data files or commands are missing, saying which', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apertium-modes-'))
    writeFileSync(join(dir, 'eng-spa.mode'), "lt-proc '/nonexistent/eng-spa.automorf.bin' | lt-proc $1 '/nonexistent/x.bin'\n")
    writeFileSync(join(dir, 'spa-eng.mode'), "no-such-apertium-command '/usr/share/apertium/modes' | lt-proc $1\n")
    writeFileSync(join(dir, 'cat-spa.mode'), "lt-proc '/usr/share/apertium/modes'\n")
    const scan = await readModes(dir)
    rmSync(dir, { recursive: true })
    expect(scan.modes).toEqual([])
    expect(scan.skipped).toEqual([
      { name: 'cat-spa', reason: 'pipeline has no generator flag ($1)' },
      { name: 'eng-spa', reason: 'file /nonexistent/eng-spa.automorf.bin not found' },
      { name: 'spa-eng', reason: 'command no-such-apertium-command not found' }
    ])
  })
})

describe('the installed modes', () => {
  let scan: ModeScan
  let pairs: DirectPairs
  beforeAll(async () => {
    scan = await readModes(MODES_DIR)
    pairs = directPairs(scan.modes)
  })

  it('skips the modes that are broken on Debian 12 by checking their files', () => {
    const skipped = new Map(scan.skipped.map(s => [s.name, s.reason]))
    for (const name of ['es-eo', 'ca-eo']) expect(skipped.get(name)).toMatch(/^file \/usr\/share\/apertium\/apertium-eo-.* not found$/)
    for (const name of ['gl-pt-latin1', 'en-eo-bytecode', 'eo-en-j']) expect(skipped.has(name)).toBe(true)
    expect(skipped.get('eco-es-fr')).toBe('not a <language>-<language> mode')
    expect(skipped.get('eng-cat_iec2017')).toBe('variant has no BCP 47 name')
    expect(scan.modes.map(m => m.name)).not.toContain('es-eo')
  })

  it('names the modes of the required packages in BCP 47', () => {
    const byName = new Map(scan.modes.map(m => [m.name, m]))
    const pair = (name: string): string => `${byName.get(name)?.from[0]}->${byName.get(name)?.to}`
    expect(pair('eng-spa')).toBe('en->es')
    expect(pair('spa-eng')).toBe('es->en')
    expect(pair('en-gl')).toBe('en->gl')
    expect(pair('fr-es')).toBe('fr->es')
    expect(pair('es-pt_BR')).toBe('es->pt-BR')
    expect(pair('eng-cat_valencia')).toBe('en->ca-valencia')
    expect(pair('oc_aran-ca')).toBe('oc-aranes->ca')
    expect(pair('rus-ukr')).toBe('ru->uk')
    expect(pair('eng-hbs_HR')).toBe('en->hr')
  })

  it('chains direct pairs to their mode and regional targets to their variant or base', () => {
    expect(findChain(pairs, 'en', 'es')?.modes.map(m => m.name)).toEqual(['eng-spa'])
    expect(findChain(pairs, 'es', 'pt-BR')?.modes.map(m => m.name)).toEqual(['es-pt_BR'])
    expect(findChain(pairs, 'es', 'pt-PT')?.modes.map(m => m.name)).toEqual(['es-pt'])
    expect(findChain(pairs, 'ES', 'pt-br')?.modes.map(m => m.name)).toEqual(['es-pt_BR'])
    expect(findChain(pairs, 'en-GB', 'ca-ES')?.modes.map(m => m.name)).toEqual(['eng-cat'])
    expect(findChain(pairs, 'en', 'sr-Latn')?.modes.map(m => m.name)).toEqual(['eng-hbs_SR'])
    expect(findChain(pairs, 'hr', 'en')?.modes.map(m => m.name)).toEqual(['hbs-eng'])
  })

  it('pivots through the best intermediate language: es, then ca, then en', () => {
    const en2fr = findChain(pairs, 'en', 'fr')
    expect(en2fr?.via).toBe('es')
    expect(en2fr?.modes.map(m => m.name)).toEqual(['eng-spa', 'es-fr'])
    expect(findChain(pairs, 'fr', 'en')?.via).toBe('es')
    expect(findChain(pairs, 'en', 'pt')?.modes.map(m => m.name)).toEqual(['eng-spa', 'es-pt'])
    expect(findChain(pairs, 'en', 'it')?.modes.map(m => m.name)).toEqual(['eng-spa', 'spa-ita'])
    expect(findChain(pairs, 'en', 'pt-BR')?.modes.map(m => m.name)).toEqual(['eng-spa', 'es-pt_BR'])
    // Sardinian is reached from Catalan and Italian only; Macedonian and Icelandic reach English only
    expect(findChain(pairs, 'en', 'sc')?.modes.map(m => m.name)).toEqual(['eng-cat', 'cat-srd'])
    expect(findChain(pairs, 'mk', 'es')?.modes.map(m => m.name)).toEqual(['mkd-eng', 'eng-spa'])
    expect(findChain(pairs, 'is', 'ca')?.via).toBe('en')
  })

  it('prefers a direct mode to the base language over a pivot to the exact variant', () => {
    const chain = findChain(pairs, 'gl', 'pt-BR')
    expect(chain?.via).toBeUndefined()
    expect(chain?.modes.map(m => m.name)).toEqual(['gl-pt'])
  })

  it('has no chain for languages without modes or within one language', () => {
    expect(findChain(pairs, 'en', 'de')).toBeUndefined()
    expect(findChain(pairs, 'en', 'zh')).toBeUndefined()
    expect(findChain(pairs, 'ca', 'ca-valencia')).toBeUndefined()
    expect(findChain(pairs, 'en', 'not a tag')).toBeUndefined()
  })

  it('lists direct and pivoted pairs, never a language to itself', () => {
    const list = listPairs(pairs)
    const has = (from: string, to: string): boolean => list.some(p => p.from === from && p.to === to)
    for (const [from, to] of [['en', 'es'], ['es', 'en'], ['en', 'fr'], ['fr', 'en'], ['en', 'pt'], ['en', 'it'], ['en', 'pt-BR'], ['en', 'ca-valencia']]) {
      expect(has(from!, to!), `${from}->${to}`).toBe(true)
    }
    expect(has('en', 'de')).toBe(false)
    expect(list.some(p => p.from.split('-')[0] === p.to.split('-')[0])).toBe(false)
    expect(list.every(p => findChain(pairs, p.from, p.to) !== undefined)).toBe(true)
  })
})
