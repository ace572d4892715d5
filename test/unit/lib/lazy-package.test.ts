import { describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { lazyPackage } from '../../../src/lib/lazy-package.js'

const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

// a fresh process (this one's module cache holds what other tests loaded) builds the app and says every module it resolved
const SCRIPT = `
import { registerHooks } from 'node:module'
const resolved = new Set()
registerHooks({ resolve: (specifier, context, next) => { const r = next(specifier, context); resolved.add(r.url); return r } })
const { buildApp } = await import('./src/app.ts')
const { testConfig } = await import('./test/helpers/app.ts')
const app = await buildApp(testConfig(JSON.parse(process.env.APP_ENV)))
await app.ready()
await app.close()
console.log(JSON.stringify([...resolved]))
process.exit(0)
`

async function modulesOfApp (env: Record<string, string>): Promise<string[]> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, env: { ...process.env, APP_ENV: JSON.stringify(env) }, maxBuffer: 64 * 2 ** 20, timeout: 120_000 })
  return JSON.parse(stdout.trim().split('\n').pop()!) as string[]
}

const OUTSIDE_CLIENTS = /node_modules\/(deepl-node|openai|bullmq|ioredis|axios)\/|node_modules\/iso-639-3\/iso6393\.js/

describe('lazyPackage', () => {
  it('loads a package on first use, once', () => {
    const yaml = lazyPackage<{ parse: (text: string) => unknown }>('yaml')
    expect(yaml()).toBe(yaml())
    expect(yaml().parse('a: 1')).toEqual({ a: 1 })
  })

  it('a service configured without DeepL, OpenAI or Redis loads none of their clients (memory: docs/benchmarks.md "Memory budget")', async () => {
    const modules = await modulesOfApp({})
    expect(modules.some(url => url.includes('/src/app.ts'))).toBe(true)
    expect(modules.filter(url => OUTSIDE_CLIENTS.test(url))).toEqual([])
  }, 150_000)
})
