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

/** The launcher's code: spawns what it is sent, hands the pipes over, reports exits. */
const LAUNCHER = `
import { spawn } from 'node:child_process'
const tell = (message, handle) => { if (process.connected) process.send(message, handle) }
process.on('message', ({ id, args }) => {
  const child = spawn('bash', args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
  child.on('error', error => tell({ id, error: error.message }))
  if (child.pid === undefined) return
  tell({ id, pid: child.pid, stream: 'stdin' }, child.stdin)
  tell({ id, stream: 'stdout' }, child.stdout)
  tell({ id, stream: 'stderr' }, child.stderr)
  child.on('exit', (code, signal) => tell({ id, exit: code === null ? 'signal ' + signal : 'code ' + code }))
})
process.on('disconnect', () => process.exit(0))
`

interface LauncherMessage {
  id: number
  pid?: number
  stream?: 'stdin' | 'stdout' | 'stderr'
  exit?: string
  error?: string
}

/** The process's launcher, started when a pipeline first starts and again if it died. */
class Launcher {
  private child: ChildProcess | undefined
  private nextId = 0
  /** Pipelines it started that have not exited, by id. */
  private readonly started = new Map<number, PipelineProcess>()

  constructor () {
    process.on('exit', () => this.child?.kill('SIGKILL'))
  }

  launch (process: PipelineProcess, args: string[]): number {
    const id = ++this.nextId
    this.started.set(id, process)
    this.running().send({ id, args })
    this.keepAlive()
    return id
  }

  /** Forgets a pipeline that exited. */
  forget (id: number): void {
    this.started.delete(id)
    this.keepAlive()
  }

  private running (): ChildProcess {
    if (this.child?.connected === true) return this.child
    const env = { ...globalThis.process.env }
    // the service's own preloads and flags are not the launcher's
    delete env['NODE_OPTIONS']
    const child = spawn(globalThis.process.execPath, ['--max-old-space-size=32', '--max-semi-space-size=1', '--input-type=module', '-e', LAUNCHER], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      env
    })
    this.child = child
    child.on('message', (message: LauncherMessage, handle?: Socket) => this.started.get(message.id)?.fromLauncher(message, handle))
    const gone = (): void => {
      if (this.child !== child) return
      this.child = undefined
      const orphans = [...this.started.values()]
      this.started.clear()
      for (const orphan of orphans) orphan.launcherGone()
    }
    child.on('error', gone)
    child.on('exit', gone)
    child.on('disconnect', gone)
    return child
  }

  /** The launcher keeps the event loop alive only while a pipeline waits for its pipes. */
  private keepAlive (): void {
    const waiting = [...this.started.values()].some(p => p.waitingForPipes)
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

/** What the pipeline hears from its processes. */
export interface PipelineHandlers {
  stdout: (chunk: Buffer) => void
  stderr: (chunk: Buffer) => void
  /** The group ended or could not start (`how`: "exited with code 1", "could not start"). */
  ended: (how: string, cause?: Error) => void
}

/** A mode's shell pipeline, started by the launcher as the leader of a process group of its own. */
export class PipelineProcess {
  /** The group's id (its leader's pid), once the launcher said it. */
  private pid: number | undefined
  private stdin: Socket | undefined
  private stdout: Socket | undefined
  private stderr: Socket | undefined
  /** What was written before stdin arrived. */
  private queued: string[] = []
  private active = true
  private killed = false
  private over = false
  private exitHow: string | undefined
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
    return !this.over && this.stderr === undefined
  }

  /** Writes to the first stage (kept until its pipe has come). */
  write (text: string): void {
    if (this.stdin === undefined) this.queued.push(text)
    else this.stdin.write(text)
  }

  /** A busy pipeline keeps Node's event loop alive, an idle one must not. */
  keepAlive (active: boolean): void {
    this.active = active
    for (const socket of [this.stdin, this.stdout, this.stderr]) {
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
    for (const socket of [this.stdin, this.stdout, this.stderr]) socket?.destroy()
  }

  fromLauncher (message: LauncherMessage, handle?: Socket): void {
    if (message.error !== undefined) {
      this.end('could not start', new Error(message.error))
      this.exit()
      return
    }
    if (message.exit !== undefined) {
      this.exitHow = message.exit
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
    } else if (message.stream === 'stdout') {
      this.stdout = handle
      handle.on('data', this.handlers.stdout)
      handle.on('error', () => {})
      // the shell alone may die, its stages still holding the pipe; or they all go at once
      handle.on('close', () => this.end(`exited with ${this.exitHow ?? 'its output closed'}`))
    } else {
      this.stderr = handle
      handle.on('data', this.handlers.stderr)
      handle.on('error', () => {})
    }
  }

  /** The launcher died: a group that has its pipes is watched through them; one still waiting never comes. */
  launcherGone (): void {
    if (this.waitingForPipes) this.end('could not start', new Error('the pipeline launcher exited'))
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
