/**
 * The layers point one way: core (src/core/) takes from core, src/lib/ and src/errors.ts only, never
 * from the runtime, HTTP, engines or storage; what it needs of them comes in as a port (app.ts).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../src')

function sources (dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(e => e.isFile() && /\.(ts|mts|mjs|js)$/.test(e.name))
    .map(e => join(e.parentPath, e.name))
}

/** The repository files a module imports (relative specifiers, static and dynamic), as paths under src/. */
function importsOf (file: string): string[] {
  const text = readFileSync(file, 'utf8')
  const found = [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map(m => m[1]!)
  return found.map(spec => relative(SRC, resolve(dirname(file), spec)))
}

describe('layers', () => {
  it('core imports nothing from the runtime, HTTP, routes, engines or storage', () => {
    const allowed = (path: string): boolean => path.startsWith('core/') || path.startsWith('lib/') || path === 'errors.js'
    const outside = sources(join(SRC, 'core')).flatMap(file => importsOf(file).filter(p => !allowed(p)).map(p => `${relative(SRC, file)} -> ${p}`))
    expect(outside).toEqual([])
  })

  it('the runtime imports nothing from core', () => {
    const outside = sources(join(SRC, 'runtime')).flatMap(file => importsOf(file).filter(p => p.startsWith('core/')).map(p => `${relative(SRC, file)} -> ${p}`))
    expect(outside).toEqual([])
  })
})
