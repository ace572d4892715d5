/**
 * The packaging files read as data and held to the code: docker-compose.yml and every manifest
 * under deploy/kubernetes/ are parsed, and their ports, probe paths, environment names and values,
 * labels and selectors, resources and security settings are checked against src/config.ts, the
 * app's routes and the Dockerfile. The compose healthcheck is run against a live server, and the
 * Redis arguments against a real redis-server when one is installed.
 */
import { execFile, spawn } from 'node:child_process'
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import type { FastifyInstance } from 'fastify'
import { ConfigError, loadConfig } from '../../src/config.js'
import { testApp } from '../helpers/app.js'

const run = promisify(execFile)
const repo = join(import.meta.dirname, '..', '..')
const k8sDir = join(repo, 'deploy', 'kubernetes')

// Measured (docs/benchmarks.md "Memory budget", docs/operations.md "Scaling"): one process after load tests, and one warm Apertium direction.
/**
 * One process (WORKERS=1) after requests of every kind from two clients at once, analysers and
 * dictionaries loaded once (532-547 with the start command's small young generations, 2026-11-27, npm run
 * bench:memory; docs/benchmarks.md, "Memory budget").
 */
const MEASURED_PROCESS_MIB = 550
const MEASURED_PIPELINE_MIB = 110
// the cluster primary (WORKERS > 1): it forks and watches the workers and keeps their rate-limit counts (2026-11-26: 125 MB RSS)
const MEASURED_PRIMARY_MIB = 130

/* Kubernetes and compose objects, as far as these checks read them. */
type Labels = Record<string, string>
interface Probe { httpGet?: { path: string, port: number | string }, exec?: { command: string[] } }
interface Container {
  name: string
  image: string
  args?: string[]
  ports?: { name?: string, containerPort: number }[]
  env?: { name: string, value?: string }[]
  envFrom?: { configMapRef?: { name: string }, secretRef?: { name: string } }[]
  resources?: { requests?: { cpu?: string, memory?: string }, limits?: { cpu?: string, memory?: string } }
  startupProbe?: Probe
  livenessProbe?: Probe
  readinessProbe?: Probe
  lifecycle?: { preStop?: { exec?: { command: string[] } } }
  securityContext?: { allowPrivilegeEscalation?: boolean, readOnlyRootFilesystem?: boolean, runAsNonRoot?: boolean, runAsUser?: number }
  volumeMounts?: { name: string, mountPath: string }[]
}
interface PodSpec {
  containers: Container[]
  securityContext?: { runAsNonRoot?: boolean, runAsUser?: number }
  terminationGracePeriodSeconds?: number
  volumes?: { name: string, emptyDir?: object }[]
}
interface K8sObject {
  apiVersion: string
  kind: string
  metadata: { name: string, labels?: Labels }
  spec?: {
    replicas?: number
    selector?: { matchLabels?: Labels } & Labels
    template?: { metadata: { labels: Labels }, spec: PodSpec }
    ports?: { port: number, targetPort: number | string }[]
    scaleTargetRef?: { apiVersion: string, kind: string, name: string }
    minReplicas?: number
    maxReplicas?: number
    metrics?: { type: string, resource?: { name: string, target: { type: string, averageUtilization?: number } } }[]
    minAvailable?: number
  }
  data?: Record<string, string>
  stringData?: Record<string, string>
}
interface ComposeService {
  build?: string | { context: string }
  image?: string
  command?: string[]
  restart?: string
  env_file?: string | (string | { path: string })[]
  environment?: Record<string, string> | string[]
  ports?: string[]
  healthcheck?: { test: string[] }
  depends_on?: Record<string, { condition: string }>
  volumes?: string[]
}

/** Every YAML document of a file as plain data; a syntax error fails the test naming the file. */
function documents (file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'))
  if (!Array.isArray(docs)) return []
  for (const doc of docs) expect(doc.errors.map(e => e.message), file).toEqual([])
  return docs.map(doc => doc.toJS() as unknown).filter(d => d !== null)
}

/** The environment names config.ts reads: those loadConfig asks for, and those its source names in str/int/bool/url calls. */
function configNames (): Set<string> {
  const names = new Set<string>()
  const env = new Proxy<Record<string, string | undefined>>({}, { get: (_target, key) => { if (typeof key === 'string') names.add(key) } })
  loadConfig(env)
  const source = readFileSync(join(repo, 'src', 'config.ts'), 'utf8')
  for (const m of source.matchAll(/\b(?:str|int|bool|url)\(\s*'([A-Z][A-Z0-9_]*)'/g)) names.add(m[1]!)
  return names
}

/** Whether every label a selector asks for is on the pod. */
function selects (selector: Labels | undefined, labels: Labels): boolean {
  const entries = Object.entries(selector ?? {})
  return entries.length > 0 && entries.every(([k, v]) => labels[k] === v)
}

/** The container port a probe or Service port names (number or port name). */
function resolvePort (container: Container, port: number | string): number | undefined {
  if (typeof port === 'number') return container.ports?.some(p => p.containerPort === port) ? port : undefined
  return container.ports?.find(p => p.name === port)?.containerPort
}

/** CPU quantity in cores ("500m", "2"). */
function cores (q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(m?)$/.exec(String(q))
  if (!m) throw new Error(`not a CPU quantity: ${q}`)
  return Number(m[1]) / (m[2] ? 1000 : 1)
}

/** Memory quantity in MiB ("512Mi", "1.5Gi", "256M"). */
function mebibytes (q: string | undefined): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(String(q))
  if (!m) throw new Error(`not a memory quantity: ${q}`)
  const unit = { Ki: 1 / 1024, Mi: 1, Gi: 1024, K: 1000 / 1048576, M: 1e6 / 1048576, G: 1e9 / 1048576 }[m[2] ?? ''] ?? 1 / 1048576
  return Number(m[1]) * unit
}

/** Environment of a compose service as a record. */
function composeEnvironment (service: ComposeService): Record<string, string> {
  const env = service.environment ?? {}
  if (!Array.isArray(env)) return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, String(v)]))
  return Object.fromEntries(env.map(e => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]))
}

/** A TCP port free at the moment. */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise(resolve => server.close(resolve))
  return port
}

/** Exit code of a command. */
async function exitCode (program: string, args: string[], env: Record<string, string | undefined>): Promise<number | null> {
  const child = spawn(program, args, { env, stdio: 'ignore' })
  return await new Promise(resolve => child.once('exit', resolve))
}

/** A configuration that passes validation where the Secret's placeholders would not. */
const REAL_SECRETS = {
  AUTH_CLIENTS: JSON.stringify([{ id: 'deploy-test', secret: 'a-long-enough-secret', scopes: ['access'] }]),
  AUTH_JWT_SECRET: 'a-deploy-test-secret-of-at-least-32-bytes'
}

const names = configNames()
const defaults = loadConfig({})
const dockerfile = readFileSync(join(repo, 'Dockerfile'), 'utf8')
/** DATA_DIR as the image sets it (document jobs), and the volume it declares there. */
const imageDataDir = /^ENV .*\bDATA_DIR=(\S+)/m.exec(dockerfile)?.[1]

describe('docker-compose.yml', () => {
  const [compose] = documents(join(repo, 'docker-compose.yml')) as [{ services: Record<string, ComposeService> }]
  const services = compose.services
  const app = services['language-service']!
  const redis = services['redis']!
  const appEnv = composeEnvironment(app)

  it('builds the service from the Dockerfile, reads .env, restarts, and waits for a healthy Redis', () => {
    expect(app).toBeDefined()
    expect(redis).toBeDefined()
    const context = typeof app.build === 'string' ? app.build : app.build?.context
    expect(context).toBeDefined()
    expect(existsSync(join(repo, context!, 'Dockerfile'))).toBe(true)
    const envFiles = [app.env_file ?? []].flat().map(f => typeof f === 'string' ? f : f.path)
    expect(envFiles).toContain('.env')
    expect(app.restart).toBeTruthy()
    expect(redis.restart).toBeTruthy()
    expect(app.depends_on?.['redis']?.condition).toBe('service_healthy')
    expect(redis.image).toMatch(/^redis:7-alpine$/)
    expect(redis.healthcheck?.test.slice(1)).toEqual(['redis-cli', 'ping'])
  })

  it('sets only variables config.ts reads, with values it accepts, and publishes the port it listens on', () => {
    expect(Object.keys(appEnv).filter(name => !names.has(name))).toEqual([])
    const config = loadConfig({ ...appEnv, ...REAL_SECRETS })
    expect(config.port).toBe(defaults.port)
    const published = (app.ports ?? []).map(p => Number(String(p).split(':').at(-1)))
    expect(published).toContain(config.port)
    expect(dockerfile).toMatch(new RegExp(`^EXPOSE ${config.port}$`, 'm'))
  })

  it('keeps document jobs on a named volume at the image\'s DATA_DIR', () => {
    const dataDir = appEnv['DATA_DIR'] ?? imageDataDir
    expect(dataDir).toBe('/data')
    expect(dockerfile).toMatch(new RegExp(`^VOLUME ${dataDir}$`, 'm'))
    const mount = (app.volumes ?? []).map(v => v.split(':')).find(([, target]) => target === dataDir)
    expect(mount, 'a volume mounted at DATA_DIR').toBeDefined()
    expect(Object.keys((compose as { volumes?: Record<string, unknown> }).volumes ?? {})).toContain(mount![0])
  })

  it('points REDIS_URL at the redis service on the port it listens on', () => {
    const url = new URL(appEnv['REDIS_URL']!)
    expect(url.hostname in services).toBe(true)
    expect(url.hostname).toBe('redis')
    const portArg = redis.command?.indexOf('--port') ?? -1
    expect(Number(url.port || 6379)).toBe(portArg >= 0 ? Number(redis.command![portArg + 1]) : 6379)
  })

  describe('the healthcheck', () => {
    let server: FastifyInstance
    let port: number
    beforeAll(async () => {
      server = await testApp()
      await server.listen({ host: '127.0.0.1', port: 0 })
      port = (server.server.address() as { port: number }).port
    })
    afterAll(async () => { await server.close() })

    it('is the Dockerfile\'s, passes against a live server, and fails when nothing answers', async () => {
      const [kind, program, ...args] = app.healthcheck!.test
      expect(kind).toBe('CMD')
      expect(program).toBe('node')
      const script = args[args.indexOf('-e') + 1]!
      expect(script).toContain('/health')
      const dockerHealthcheck = /^\s*CMD node -e "(.*)"$/m.exec(dockerfile.replace(/\\\n/g, '\n'))?.[1]
      expect(dockerHealthcheck).toBe(script)
      const env = { PATH: process.env['PATH'], PORT: String(port) }
      expect(await exitCode(process.execPath, args, env)).toBe(0)
      expect(await exitCode(process.execPath, args, { ...env, PORT: String(await freePort()) })).toBe(1)
    })
  })

  it.skipIf(!existsSync('/usr/bin/redis-server'))('starts a real redis-server with its Redis arguments', async () => {
    const [program, ...args] = redis.command!
    expect(program).toBe('redis-server')
    const port = await freePort()
    const child = spawn('/usr/bin/redis-server', [...args, '--port', String(port), '--bind', '127.0.0.1'], { stdio: 'ignore' })
    try {
      let pong = ''
      for (let i = 0; i < 50 && pong !== 'PONG'; i++) {
        await new Promise(resolve => setTimeout(resolve, 100))
        pong = await run('redis-cli', ['-p', String(port), 'ping']).then(r => r.stdout.trim(), () => '')
      }
      expect(pong).toBe('PONG')
      const { stdout } = await run('redis-cli', ['-p', String(port), 'config', 'get', 'maxmemory-policy'])
      expect(stdout.split('\n')[1]).toBe(args[args.indexOf('--maxmemory-policy') + 1])
    } finally {
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise(resolve => child.once('exit', resolve))
    }
  })
})

describe('deploy/kubernetes', () => {
  const files = readdirSync(k8sDir).filter(f => /\.ya?ml$/.test(f)).sort()
  const [kustomization] = documents(join(k8sDir, 'kustomization.yaml')) as [{ resources: string[], images?: { name: string, newName?: string, newTag?: string }[] }]
  const objects = kustomization.resources.flatMap(f => documents(join(k8sDir, f)) as K8sObject[])
  const find = (kind: string, name: string): K8sObject => {
    const found = objects.find(o => o.kind === kind && o.metadata.name === name)
    if (!found) throw new Error(`no ${kind} ${name}`)
    return found
  }
  const deployment = find('Deployment', 'language-service')
  const pod = deployment.spec!.template!
  const container = pod.spec.containers[0]!
  const redisDeployment = find('Deployment', 'redis')
  const redisPod = redisDeployment.spec!.template!
  const configMap = find('ConfigMap', container.envFrom!.find(e => e.configMapRef)!.configMapRef!.name)
  const secret = find('Secret', container.envFrom!.find(e => e.secretRef)!.secretRef!.name)
  const secretValues: Record<string, string> = {
    ...Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()])),
    ...secret.stringData
  }
  const containerEnv = Object.fromEntries((container.env ?? []).map(e => [e.name, e.value ?? '']))
  const podEnv = { ...configMap.data, ...containerEnv }

  it('lists every manifest in kustomization.yaml, each a known kind and version, and kustomize builds them', async () => {
    expect([...kustomization.resources].sort()).toEqual(files.filter(f => f !== 'kustomization.yaml'))
    const versions: Record<string, string> = {
      Deployment: 'apps/v1', Service: 'v1', ConfigMap: 'v1', Secret: 'v1', HorizontalPodAutoscaler: 'autoscaling/v2', PodDisruptionBudget: 'policy/v1'
    }
    for (const o of objects) {
      expect(versions[o.kind], `${o.kind} ${o.metadata.name}`).toBe(o.apiVersion)
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/)
    }
    expect(objects.map(o => o.kind).sort()).toEqual(['ConfigMap', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'PodDisruptionBudget', 'Secret', 'Service', 'Service'])
    const image = kustomization.images?.find(i => i.name === container.image)
    expect(image?.newName).toBeTruthy()
    if (existsSync('/usr/bin/kubectl')) {
      const { stdout } = await run('/usr/bin/kubectl', ['kustomize', k8sDir])
      const built = parseAllDocuments(stdout)
      expect(Array.isArray(built) && built.length).toBe(objects.length)
      expect(stdout).toContain(`image: ${image!.newName}:${image!.newTag}`)
    }
  })

  it('serves on the port config.ts listens on, through the Service', () => {
    const config = loadConfig({ ...podEnv, ...REAL_SECRETS })
    expect(container.ports?.map(p => p.containerPort)).toEqual([config.port])
    expect(config.port).toBe(defaults.port)
    const service = find('Service', 'language-service')
    expect(selects(service.spec!.selector, pod.metadata.labels)).toBe(true)
    expect(selects(service.spec!.selector, redisPod.metadata.labels)).toBe(false)
    const [port] = service.spec!.ports!
    expect(port!.port).toBe(80)
    expect(resolvePort(container, port!.targetPort)).toBe(config.port)
  })

  describe('probes', () => {
    let app: FastifyInstance
    beforeAll(async () => { app = await testApp() })
    afterAll(async () => { await app.close() })

    it('check /health for liveness and start-up and /ready for readiness, routes the app answers without a token', async () => {
      expect(container.livenessProbe?.httpGet?.path).toBe('/health')
      expect(container.startupProbe?.httpGet?.path).toBe('/health')
      expect(container.readinessProbe?.httpGet?.path).toBe('/ready')
      for (const probe of [container.livenessProbe!, container.startupProbe!, container.readinessProbe!]) {
        expect(resolvePort(container, probe.httpGet!.port)).toBe(8080)
        const res = await app.inject({ method: 'GET', url: probe.httpGet!.path })
        expect(res.statusCode, probe.httpGet!.path).toBe(200)
      }
    })
  })

  it('labels and selectors tie the Deployment, Service, autoscaler and disruption budget together', () => {
    for (const d of [deployment, redisDeployment]) {
      expect(selects(d.spec!.selector!.matchLabels, d.spec!.template!.metadata.labels)).toBe(true)
    }
    expect(selects(deployment.spec!.selector!.matchLabels, redisPod.metadata.labels)).toBe(false)
    const pdb = find('PodDisruptionBudget', 'language-service')
    expect(selects(pdb.spec!.selector!.matchLabels, pod.metadata.labels)).toBe(true)
    expect(selects(pdb.spec!.selector!.matchLabels, redisPod.metadata.labels)).toBe(false)
    const hpa = find('HorizontalPodAutoscaler', 'language-service')
    expect(hpa.spec!.scaleTargetRef).toEqual({ apiVersion: deployment.apiVersion, kind: 'Deployment', name: deployment.metadata.name })
    expect(hpa.spec!.minReplicas).toBe(2)
    expect(hpa.spec!.maxReplicas).toBe(10)
    // a drain must be able to evict a pod: more pods than the budget keeps
    expect(hpa.spec!.minReplicas!).toBeGreaterThan(pdb.spec!.minAvailable!)
    expect(hpa.spec!.metrics).toEqual([{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }])
    // the autoscaler owns the replica count
    expect(deployment.spec!.replicas).toBeUndefined()
  })

  it('sets only variables config.ts reads, and they configure Redis and WORKERS as the pod\'s resources say', () => {
    const used = [...Object.keys(configMap.data ?? {}), ...Object.keys(secretValues), ...Object.keys(containerEnv)]
    expect(used.filter(name => !names.has(name))).toEqual([])
    const config = loadConfig({ ...podEnv, ...REAL_SECRETS })
    // the default's rule: half the cores the pod may use
    expect(config.workers).toBe(Math.max(1, Math.floor(cores(container.resources?.limits?.cpu) / 2)))
    const redisService = find('Service', 'redis')
    const url = new URL(config.redisUrl!)
    expect(url.hostname).toBe(redisService.metadata.name)
    expect(selects(redisService.spec!.selector, redisPod.metadata.labels)).toBe(true)
    const [port] = redisService.spec!.ports!
    expect(Number(url.port || 6379)).toBe(port!.port)
    expect(resolvePort(redisPod.spec.containers[0]!, port!.targetPort)).toBe(6379)
    expect(redisDeployment.spec!.replicas).toBe(1)
  })

  it('sizes every container, the service from the measured memory', () => {
    for (const c of [container, ...redisPod.spec.containers]) {
      const { requests, limits } = c.resources ?? {}
      expect(cores(requests?.cpu)).toBeLessThanOrEqual(cores(limits?.cpu))
      expect(mebibytes(requests?.memory)).toBeLessThanOrEqual(mebibytes(limits?.memory))
    }
    const config = loadConfig({ ...podEnv, ...REAL_SECRETS })
    const pipelines = config.apertium.maxPipelines
    expect(mebibytes(container.resources!.requests!.memory)).toBeGreaterThanOrEqual(MEASURED_PROCESS_MIB)
    // every worker holds its own models and pipelines; the pipelines of all of them are within the budget
    const primary = config.workers > 1 ? MEASURED_PRIMARY_MIB : 0
    // the pipelines' memory budget when set (it holds by estimate whatever the pairs), else the cap times an en<->es pipeline
    const pipelinesMib = config.apertium.maxMemoryMb > 0 ? config.apertium.maxMemoryMb : pipelines * MEASURED_PIPELINE_MIB
    expect(mebibytes(container.resources!.limits!.memory)).toBeGreaterThanOrEqual(config.workers * MEASURED_PROCESS_MIB + primary + pipelinesMib)
  })

  it('runs as the image\'s non-root user, read-only but for /tmp, and drains before SIGTERM', () => {
    expect(dockerfile).toMatch(/^USER node$/m)
    for (const p of [pod, redisPod]) {
      expect(p.spec.securityContext?.runAsNonRoot).toBe(true)
      expect(p.spec.securityContext?.runAsUser).toBeGreaterThan(0)
      for (const c of p.spec.containers) {
        expect(c.securityContext?.allowPrivilegeEscalation).toBe(false)
        expect(c.securityContext?.readOnlyRootFilesystem).toBe(true)
      }
    }
    // uid of `node` in the official Node images
    expect(pod.spec.securityContext?.runAsUser).toBe(1000)
    const tmp = container.volumeMounts?.find(m => m.mountPath === '/tmp')
    expect(pod.spec.volumes?.find(v => v.name === tmp?.name)?.emptyDir).toBeDefined()
    const [sleep, seconds] = container.lifecycle?.preStop?.exec?.command ?? []
    expect(sleep).toBe('sleep')
    expect(Number(seconds)).toBeGreaterThan(0)
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(Number(seconds) + 20)
  })

  it('keeps document jobs in Redis (REDIS_URL: any pod answers a job, none is lost with a pod), with a writable DATA_DIR all the same', () => {
    expect(podEnv['REDIS_URL']).toMatch(/^redis:\/\//)
    const dataDir = podEnv['DATA_DIR'] ?? imageDataDir
    expect(dataDir).toBe('/data')
    const mount = container.volumeMounts?.find(m => m.mountPath === dataDir)
    expect(pod.spec.volumes?.find(v => v.name === mount?.name)?.emptyDir).toBeDefined()
  })

  it('holds only placeholders in the Secret, which stop start-up until replaced', () => {
    expect(Object.keys(secretValues).sort()).toEqual(['AUTH_CLIENTS', 'AUTH_JWT_SECRET'])
    for (const [name, value] of Object.entries(secretValues)) {
      expect(value, name).toMatch(/REPLACE_ME/)
      let caught: unknown
      try { loadConfig({ ...podEnv, ...REAL_SECRETS, [name]: value }) } catch (err) { caught = err }
      expect(caught, name).toBeInstanceOf(ConfigError)
      expect((caught as ConfigError).variable).toBe(name)
    }
  })
})
