/**
 * The Dockerfile without Docker (this machine has no Docker engine): its build stage is
 * reproduced from exactly the files it COPYs (node_modules linked in place of `npm ci`) and
 * built with `npm run build`; its runtime stage is assembled from exactly what it COPYs and
 * started with its CMD, which must become ready. A file the build or the service needs and the
 * Dockerfile leaves out fails here. Also: everything dist/ imports is a runtime dependency,
 * since the image prunes devDependencies.
 */
import { execFile, spawn } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { basename, dirname, join, posix } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const run = promisify(execFile)
const repo = join(import.meta.dirname, '..', '..')

interface Instruction { keyword: string, args: string }
interface Stage { name?: string, workdir: string, steps: Instruction[] }

/** The Dockerfile's stages, continuation lines joined, comments dropped. */
function stages (text: string): Stage[] {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map(l => l.trim()).filter(l => l !== '' && !l.startsWith('#'))
  const out: Stage[] = []
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/)
    const step = { keyword: keyword.toUpperCase(), args: rest.join(' ') }
    if (step.keyword === 'FROM') {
      const name = / AS (\S+)$/i.exec(step.args)?.[1]
      out.push({ ...(name ? { name } : {}), workdir: '/', steps: [] })
      continue
    }
    const stage = out.at(-1)!
    if (step.keyword === 'WORKDIR') stage.workdir = posix.resolve(stage.workdir, step.args)
    stage.steps.push(step)
  }
  return out
}

/**
 * Carries out a stage's COPY steps into `root` (standing for its WORKDIR): sources from the
 * repository, or with --from=<stage> from `from(path in that stage)`. Copies to places outside
 * the WORKDIR (package lists for apt) are left out.
 */
function copyInto (stage: Stage, root: string, from: (stageName: string, path: string) => string): void {
  for (const step of stage.steps.filter(s => s.keyword === 'COPY')) {
    const words = step.args.split(/\s+/)
    const fromStage = words.find(w => w.startsWith('--from='))?.slice('--from='.length)
    const paths = words.filter(w => !w.startsWith('--'))
    const dest = posix.resolve(stage.workdir, paths.pop()!)
    if (dest !== stage.workdir && !dest.startsWith(stage.workdir + '/')) continue
    const into = join(root, posix.relative(stage.workdir, dest))
    const intoDirectory = paths.length > 1 || paths.at(-1)!.endsWith('/') || step.args.trimEnd().endsWith('/')
    for (const source of paths) {
      const real = fromStage === undefined ? join(repo, source) : from(fromStage, source)
      const target = intoDirectory ? join(into, basename(source)) : into
      mkdirSync(dirname(target), { recursive: true })
      if (basename(source) === 'node_modules') symlinkSync(join(repo, 'node_modules'), target)
      else cpSync(real, target, { recursive: true })
    }
  }
}

/** A TCP port free at the moment. */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise(resolve => server.close(resolve))
  return port
}

/** Bare package names a built JavaScript file imports. */
function importedPackages (code: string): string[] {
  const names: string[] = []
  // static and dynamic imports and createRequire calls of a package name (word lists holding "from" are not imports)
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire(?:\.resolve)?\s*\(\s*)['"]((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[^'"\s]*)?)['"]/g)) {
    const spec = m[1]!
    if (spec.startsWith('node:') || builtinModules.includes(spec)) continue
    names.push(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!)
  }
  return names
}

function filesUnder (dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter(e => e.isFile()).map(e => join(e.parentPath, e.name))
}

describe('Dockerfile', () => {
  const all = stages(readFileSync(join(repo, 'Dockerfile'), 'utf8'))
  const build = all[0]!
  const runtime = all.at(-1)!
  const work = mkdtempSync(join(tmpdir(), 'dockerfile-'))
  const buildRoot = join(work, 'build')
  const runRoot = join(work, 'run')

  beforeAll(async () => {
    expect(all.length).toBeGreaterThanOrEqual(2)
    expect(build.steps.some(s => s.keyword === 'RUN' && s.args.includes('npm run build'))).toBe(true)
    copyInto(build, buildRoot, () => { throw new Error('the build stage copies from no other stage') })
    symlinkSync(join(repo, 'node_modules'), join(buildRoot, 'node_modules'))
    await run('npm', ['run', 'build'], { cwd: buildRoot })
  }, 180_000)
  afterAll(() => rmSync(work, { recursive: true, force: true }))

  it('builds from the files its build stage copies, and dist imports only runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
    const used = new Set(filesUnder(join(buildRoot, 'dist')).filter(f => f.endsWith('.js')).flatMap(f => importedPackages(readFileSync(f, 'utf8'))))
    expect(used.size).toBeGreaterThan(5)
    expect([...used].filter(name => !(name in pkg.dependencies))).toEqual([])
  })

  it('starts from what its runtime stage copies, with its CMD, and becomes ready', async () => {
    copyInto(runtime, runRoot, (stageName, path) => {
      const stage = all.find(s => s.name === stageName)
      expect(stage, `stage ${stageName}`).toBe(build)
      return join(buildRoot, posix.relative(build.workdir, path))
    })
    const cmd = runtime.steps.filter(s => s.keyword === 'CMD').at(-1)
    expect(cmd).toBeDefined()
    const [program, ...args] = JSON.parse(cmd!.args) as string[]
    expect(program).toBe('node')
    const port = await freePort()
    const child = spawn(process.execPath, args, {
      cwd: runRoot,
      env: { PATH: process.env['PATH'], HOME: process.env['HOME'], NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let output = ''
    child.stdout.on('data', (d: Buffer) => { output += d.toString() })
    child.stderr.on('data', (d: Buffer) => { output += d.toString() })
    try {
      let ready = 0
      for (let i = 0; i < 120 && ready !== 200 && child.exitCode === null; i++) {
        await new Promise(resolve => setTimeout(resolve, 500))
        ready = await fetch(`http://127.0.0.1:${port}/ready`).then(r => r.status, () => 0)
      }
      expect(ready, output).toBe(200)
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200)
      expect((await fetch(`http://127.0.0.1:${port}/openapi.json`)).status).toBe(200)
      // the playground page and its script, from web/ as the runtime stage copies it
      expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200)
      expect((await fetch(`http://127.0.0.1:${port}/web/app.js`)).status).toBe(200)
    } finally {
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise(resolve => child.once('exit', resolve))
    }
  }, 90_000)
})
