/**
 * The settings table (src/settings.ts) is the one list of settings: config.ts reads exactly its
 * names, `.env.example` and docs/configuration.md are what it generates (`npm run settings`), and
 * the deployment files set no variable it does not have.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { loadConfig } from '../../src/config.js'
import { SETTING_GROUPS, SETTINGS, type Setting } from '../../src/settings.js'
import { configurationMd, envExample } from '../../scripts/settings-docs.js'

const repo = join(import.meta.dirname, '..', '..')
const read = (path: string): string => readFileSync(join(repo, path), 'utf8')
const table = SETTINGS as readonly Setting[]
const names = new Set(table.map(s => s.name))

describe('settings table', () => {
  it('.env.example is what the table generates (run `npm run settings` after changing src/settings.ts)', () => {
    expect(read('.env.example')).toBe(envExample())
  })

  it('docs/configuration.md is what the table generates (run `npm run settings` after changing src/settings.ts)', () => {
    expect(read('docs/configuration.md')).toBe(configurationMd())
  })

  it('holds each setting once, in a known group, with its default within its bounds', () => {
    expect(names.size).toBe(table.length)
    const groups = new Set<string>(SETTING_GROUPS.map(g => g.id))
    for (const s of table) {
      expect(s.name).toMatch(/^[A-Z][A-Z0-9_]*$/)
      expect(groups.has(s.group), s.name).toBe(true)
      expect(s.help.trim(), s.name).not.toBe('')
      if (s.type === 'int') {
        expect(s.min, s.name).toBeLessThanOrEqual(s.max)
        if (typeof s.default === 'number') {
          expect(s.default, s.name).toBeGreaterThanOrEqual(s.min)
          expect(s.default, s.name).toBeLessThanOrEqual(s.max)
        } else {
          // computed from the machine: the docs say how in words
          expect(s.defaultText, s.name).toBeTruthy()
        }
      }
      if (s.type === 'choice') expect(s.choices, s.name).toContain(s.default)
    }
  })

  it('is exactly what config.ts reads', () => {
    const asked = new Set<string>()
    const env = new Proxy({} as Record<string, string | undefined>, {
      get: (target, key) => {
        if (typeof key === 'string') asked.add(key)
        return target[key as string]
      }
    })
    loadConfig(env)
    expect([...asked].sort()).toEqual([...names].sort())
  })

  it('has the defaults config.ts takes when nothing is set', () => {
    const config = loadConfig({})
    expect(config.port).toBe(8080)
    expect(config.limits.bodyBytes).toBe(1024 * 1024)
    expect(config.googleCloud.url).toBe('https://translation.googleapis.com')
    expect(config.openai.baseUrl).toBe('https://api.openai.com/v1')
    expect(config.google).toEqual({ enabled: false, host: 'translate.google.com' })
    expect(config.trustProxy).toBe(false)
  })
})

describe('deployment files', () => {
  /** Every environment variable a manifest sets: ConfigMap data, Secret data, containers' env. */
  const k8sDir = 'deploy/kubernetes'
  const objects = readdirSync(join(repo, k8sDir)).filter(f => /\.ya?ml$/.test(f))
    .flatMap(f => parseAllDocuments(read(join(k8sDir, f))).map(d => ({ file: f, object: d.toJS() as Record<string, any> | null })))
  const containers = (o: Record<string, any>): Array<Record<string, any>> =>
    [...(o['spec']?.template?.spec?.containers ?? []), ...(o['spec']?.template?.spec?.initContainers ?? [])]
  const service = objects.find(({ object }) => object?.['kind'] === 'Deployment' && object['metadata']?.name === 'language-service')!.object!
  const isService = (o: Record<string, any>): boolean => o === service || (o['kind'] !== 'Deployment')

  it('Kubernetes: every variable the service is given is a setting, and the ConfigMap holds no secret one', () => {
    const set: string[] = []
    for (const { object } of objects) {
      if (!object || !isService(object)) continue
      if (object['kind'] === 'ConfigMap') {
        const keys = Object.keys(object['data'] ?? {})
        set.push(...keys)
        const secrets = keys.filter(k => table.find(s => s.name === k)?.secret)
        expect(secrets, 'secret settings in the ConfigMap').toEqual([])
      }
      if (object['kind'] === 'Secret') set.push(...Object.keys({ ...object['data'], ...object['stringData'] }))
      for (const c of containers(object)) set.push(...(c['env'] ?? []).map((e: { name: string }) => e.name))
    }
    expect(set.length).toBeGreaterThan(5)
    expect(set.filter(n => !names.has(n))).toEqual([])
  })

  it('docker-compose.yml: every variable the service is given is a setting', () => {
    const compose = parseAllDocuments(read('docker-compose.yml'))[0]!.toJS() as { services: Record<string, { environment?: Record<string, string> | string[] }> }
    const env = compose.services['language-service']!.environment ?? {}
    const set = Array.isArray(env) ? env.map(e => e.split('=')[0]!) : Object.keys(env)
    expect(set.length).toBeGreaterThan(0)
    expect(set.filter(n => !names.has(n))).toEqual([])
  })

  it('the deployment files name no setting the table does not have, comments included', () => {
    const files = [...readdirSync(join(repo, k8sDir)).filter(f => /\.ya?ml$/.test(f)).map(f => join(k8sDir, f)), 'docker-compose.yml']
    const unknown = files.flatMap(f => [...read(f).matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)]
      .map(m => m[0]).filter(n => n !== 'REPLACE_ME' && !names.has(n)).map(n => `${f}: ${n}`))
    expect(unknown).toEqual([])
  })
})
