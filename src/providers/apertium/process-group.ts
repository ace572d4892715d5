/**
 * A pipeline's processes: the mode's shell pipeline started in a process group of its own, every
 * stage watched, and the whole group killed at once.
 *
 * The shell runs the stages as a background job and kills its whole process group as soon as any
 * of them exits (a CHLD trap), so a stage that crashes or is killed ends the pipeline at once
 * instead of leaving it silent until the timeout.
 *
 * A small Node process of ours, the launcher, starts the shells and hands their pipes over (Node's
 * IPC passes them as sockets): spawning from the service itself forks the service, which holds its
 * event loop ~12 ms at 400 MB of RSS and over 100 ms at 1.2 GB on busy cores, for every pipeline
 * start (docs/benchmarks.md, Translation). The launcher forks a process of ~40 MB.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import type { Socket } from 'node:net'

/**
 * The shell around a mode's pipeline: the stages run as a background job (its first stage keeps
 * our stdin: `0<&0`, or bash would give it /dev/null) and the first stage to exit, for any reason,
 * kills the whole group (`kill 0`), which closes our pipes and tells us at once.
 */
function watchedScript (script: string): string {
  return `trap 'kill -KILL 0' CHLD\n0<&0 ${script} &\nwait\n`
}

/** How long a group whose output closed waits for the launcher's word of its exit (and of its stderr) before it counts as ended. */
const OUTPUT_CLOSED_WAIT_MS = 250
/** How much of a group's stderr the launcher tells at once (its latest). */
const STDERR_TOLD = 2000

/**
 * The launcher's code: spawns what it is sent, hands its input and output pipes over, tells what
 * it writes to stderr, reports exits; or runs a command (`run`) and answers its output. Its
 * children lead process groups of their own, so a signal to the service's group does not reach
 * them. Each runs with the service's environment at the time it was asked for.
 */
const LAUNCHER = `
import { execFile, spawn } from 'node:child_process'
const tell = (message, handle) => { if (process.connected) process.send(message, handle) }
process.on('message', ({ id, args, run, env }) => {
  if (run !== undefined) {
    execFile(run[0], run.slice(1), { encoding: 'utf8', detached: true, maxBuffer: 1 << 20, env }, (error, output) =>
      tell(error ? { id, error: error.message } : { id, output }))
    return
  }
  const child = spawn('bash', args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env })
  child.on('error', error => tell({ id, error: error.message }))
  if (child.pid === undefined) return
  // the output first: a pipe is read here until it has been handed over, and what was read here
  // would be lost, so nothing may be written before it is theirs
  tell({ id, pid: child.pid, stream: 'stdout' }, child.stdout)
  tell({ id, stream: 'stdin' }, child.stdin)
  // stderr stays here and its latest is told: a stage that cannot start writes why at once and
  // exits, often before a pipe handed over could arrive (pipes go over one at a time)
  let tail = ''
  let timer
  const flush = () => {
    clearTimeout(timer)
    timer = undefined
    if (tail !== '') tell({ id, stderr: tail })
    tail = ''
  }
  child.stderr.setEncoding('utf8')
  child.stderr.on('data', text => {
    tail = (tail + text).slice(-${STDERR_TOLD})
    timer ??= setTimeout(flush, 50)
  })
  child.on('exit', (code, signal) => {
    // what stderr still holds goes first: at its end, or in a moment if stages outlive the shell
    let told = false
    const exit = () => {
      if (told) return
      told = true
      flush()
      tell({ id, exit: code === null ? 'signal ' + signal : 'code ' + code })
    }
    if (child.stderr.readableEnded) exit()
    else {
      child.stderr.once('end', exit)
      setTimeout(exit, 100)
    }
  })
})
process.on('disconnect', () => process.exit(0))
`

interface LauncherMessage {
  id: number
  output?: string
  pid?: number
  stream?: 'stdin' | 'stdout'
  /** The latest of what the group wrote to stderr (at most STDERR_TOLD characters, told at most every 50 ms). */
  stderr?: string
  exit?: string
  error?: string
}

class LauncherGone extends Error {
  constructor () {
    super('the pipeline launcher exited')
  }
}

/** What of the service's environment the launcher and the pipelines' stages get: where programs and temporary files are, the locale (UTF-8). */
const ENGINE_VARIABLES = /^(?:PATH|HOME|LANG|LANGUAGE|LC_[A-Z]+|TMPDIR|TZ)$/

/**
 * The environment of the engine's processes: only ENGINE_VARIABLES, never the service's settings
 * (a probe read AUTH_JWT_SECRET, METRICS_TOKEN and AUTH_CLIENTS in /proc/<pid>/environ of every
 * stage), which no stage reads.
 */
export function engineEnvironment (from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(from)) if (value !== undefined && ENGINE_VARIABLES.test(name)) env[name] = value
  return env
}

/** The process's launcher, started when a pipeline first starts and again if it died. */
class Launcher {
  private child: ChildProcess | undefined
  private nextId = 0
  /** Pipelines it started that have not exited, by id. */
  private readonly started = new Map<number, PipelineProcess>()
  /** Commands it runs, by id. */
  private readonly runs = new Map<number, { resolve: (output: string) => void, reject: (error: Error) => void }>()

  constructor () {
    process.on('exit', () => this.child?.kill('SIGKILL'))
  }

  launch (pipeline: PipelineProcess, args: string[]): number {
    const id = ++this.nextId
    this.started.set(id, pipeline)
    this.running().send({ id, args, env: engineEnvironment() })
    this.keepAlive()
    return id
  }

  /** Runs a command (no shell) in the launcher and answers its output; once more in a new launcher if it died meanwhile. */
  async run (command: string[], again = true): Promise<string> {
    const id = ++this.nextId
    const done = new Promise<string>((resolve, reject) => this.runs.set(id, { resolve, reject }))
    this.running().send({ id, run: command, env: engineEnvironment() })
    this.keepAlive()
    try {
      return await done
    } catch (error) {
      if (!again || !(error instanceof LauncherGone)) throw error
      return await this.run(command, false)
    } finally {
      this.runs.delete(id)
      this.keepAlive()
    }
  }

  /** Forgets a pipeline that exited. */
  forget (id: number): void {
    this.started.delete(id)
    this.keepAlive()
  }

  private running (): ChildProcess {
    if (this.child?.connected === true) return this.child
    // the service's own preloads and flags (NODE_OPTIONS) are not the launcher's, nor its secrets
    const env = engineEnvironment()
    // a process group of its own: a signal to the service's group is the service's to act on (it
    // drains, then exits), and the launcher goes when the service does (its channel closes)
    const child = spawn(process.execPath, ['--max-old-space-size=32', '--max-semi-space-size=1', '--input-type=module', '-e', LAUNCHER], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env,
      detached: true
    })
    this.child = child
    child.on('message', (message: LauncherMessage, handle?: Socket) => {
      const run = this.runs.get(message.id)
      if (run === undefined) this.started.get(message.id)?.fromLauncher(message, handle)
      else if (message.output === undefined) run.reject(new Error(message.error))
      else run.resolve(message.output)
    })
    const gone = (): void => {
      if (this.child !== child) return
      this.child = undefined
      const orphans = [...this.started.values()]
      this.started.clear()
      for (const orphan of orphans) orphan.launcherGone()
      for (const run of this.runs.values()) run.reject(new LauncherGone())
    }
    child.on('error', gone)
    child.on('exit', gone)
    child.on('disconnect', gone)
    return child
  }

  /** The launcher keeps the event loop alive only while a pipeline waits for its pipes. */
  private keepAlive (): void {
    const waiting = this.runs.size > 0 || [...this.started.values()].some(p => p.waitingForPipes)
    const child = this.child
    if (child === undefined) return
    if (waiting) {
      child.ref()
      child.channel?.ref()
    } else {
      child.unref()
      child.channel?.unref()
    }
  }
}

let launcher: Launcher | undefined

/** Runs a command (no shell) through the launcher, off the service's process group, and answers its output. */
export async function runCommand (command: string[]): Promise<string> {
  launcher ??= new Launcher()
  return await launcher.run(command)
}

/** What the pipeline hears from its processes. */
export interface PipelineHandlers {
  stdout: (chunk: Buffer) => void
  /** The latest of what it wrote to stderr. */
  stderr: (text: string) => void
  /** Its first stage's pipe has come: what was written is on its way. */
  started: () => void
  /** The group ended or could not start (`how`: "exited with code 1", "could not start"). */
  ended: (how: string, cause?: Error) => void
}

/** A mode's shell pipeline, started by the launcher as the leader of a process group of its own. */
export class PipelineProcess {
  /** The group's id (its leader's pid), once the launcher said it. */
  private pid: number | undefined
  private stdin: Socket | undefined
  private stdout: Socket | undefined
  /** What was written before stdin arrived. */
  private queued: string[] = []
  private active = true
  private killed = false
  /** Set once its output closed: the wait for the launcher's word of the exit. */
  private outputClosed: NodeJS.Timeout | undefined
  private over = false
  private readonly id: number
  private readonly handlers: PipelineHandlers
  private resolveExited!: () => void
  /** Settles once the group's leader is gone (or never started). */
  readonly exited = new Promise<void>(resolve => { this.resolveExited = resolve })

  constructor (mode: string, script: string, handlers: PipelineHandlers) {
    this.handlers = handlers
    launcher ??= new Launcher()
    // $1 is the generator flag: -n leaves unknown words unmarked (no * # @); $2 the tagger flag.
    // --norc: with a socket as stdin and SHLVL unset or 0 (a service manager, a container), bash
    // takes itself for a remote shell and runs ~/.bashrc, whatever it does or waits for, on every start
    this.id = launcher.launch(this, ['--norc', '-c', watchedScript(script), `apertium-${mode}`, '-n', ''])
  }

  get waitingForPipes (): boolean {
    return !this.over && this.stdin === undefined
  }

  /** Whether its first stage's pipe has come, the last of the three (until then writes wait here). */
  get started (): boolean {
    return this.stdin !== undefined
  }

  /** Writes to the first stage (kept until its pipe has come). */
  write (text: string): void {
    if (this.stdin === undefined) this.queued.push(text)
    else this.stdin.write(text)
  }

  /** A busy pipeline keeps Node's event loop alive, an idle one must not. */
  keepAlive (active: boolean): void {
    this.active = active
    for (const socket of [this.stdin, this.stdout]) {
      if (active) socket?.ref()
      else socket?.unref()
    }
  }

  /** Kills the whole group (bash and every stage) and drops our pipes to it. */
  kill (): void {
    this.killed = true
    if (this.pid !== undefined) {
      try {
        // negative pid: the whole group, spawned detached with bash as its leader
        process.kill(-this.pid, 'SIGKILL')
      } catch {}
    }
    for (const socket of [this.stdin, this.stdout]) socket?.destroy()
    clearTimeout(this.outputClosed)
  }

  fromLauncher (message: LauncherMessage, handle?: Socket): void {
    if (message.error !== undefined) {
      this.end('could not start', new Error(message.error))
      this.exit()
      return
    }
    if (message.stderr !== undefined) {
      this.handlers.stderr(message.stderr)
      return
    }
    if (message.exit !== undefined) {
      clearTimeout(this.outputClosed)
      this.end(`exited with ${message.exit}`)
      this.exit()
      return
    }
    if (message.pid !== undefined) this.pid = message.pid
    if (handle === undefined) return
    if (this.killed) {
      this.kill()
      handle.destroy()
      return
    }
    if (!this.active) handle.unref()
    if (message.stream === 'stdin') {
      this.stdin = handle
      // a dead stage closes the pipe; the exit and the output's close report it
      handle.on('error', () => {})
      if (this.queued.length > 0) handle.write(this.queued.join(''))
      this.queued = []
      this.handlers.started()
    } else if (message.stream === 'stdout') {
      this.stdout = handle
      handle.on('data', this.handlers.stdout)
      handle.on('error', () => {})
      // the shell alone may die, its stages still holding the pipe (its exit tells); or they all
      // go at once: then the exit, which comes after what they wrote to stderr, is waited for a moment
      handle.on('close', () => {
        this.outputClosed ??= setTimeout(() => this.end('exited with its output closed'), OUTPUT_CLOSED_WAIT_MS).unref()
      })
    }
  }

  /** The launcher died: a group that has its pipes is watched through them; one still waiting never comes. */
  launcherGone (): void {
    if (this.waitingForPipes) this.end('could not start', new LauncherGone())
    this.exit()
  }

  private end (how: string, cause?: Error): void {
    if (this.over) return
    this.over = true
    this.handlers.ended(how, cause)
  }

  private exit (): void {
    launcher?.forget(this.id)
    this.resolveExited()
  }
}
