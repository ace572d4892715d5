/**
 * The cluster primary: forks the worker processes that share the port (node:cluster), serves
 * each of them what must be one for the machine over the channel, replaces a worker that dies,
 * and on SIGTERM/SIGINT/SIGHUP (to it alone, or to the whole process group: Ctrl-C in a terminal,
 * systemd's default) lets every worker finish its requests in flight, then exits.
 */
import cluster, { type Worker } from 'node:cluster'
import { clusterWorkerEndpoint, serve, type Handlers } from './channel.js'

/** Exit code of a configuration error (EX_CONFIG): a worker exiting with it is not restarted. */
export const EX_CONFIG = 78
/** How long the primary waits for its workers to finish their requests after a signal before killing them. */
const SHUTDOWN_MS = 15_000

export interface PrimaryOptions {
  workers: number
  /** Environment variables every worker gets on top of the primary's. */
  env: Record<string, string>
  /** What each worker's channel serves (one instance for all workers: the machine's state), given how to tell every worker something. */
  handlers: (broadcast: (notice: unknown) => void) => Handlers
}

/** Runs the primary until its workers are gone after a signal (or keep failing). */
export function runPrimary (options: PrimaryOptions): void {
  let stopping = false
  const started = new Map<Worker, number>()
  let quickDeaths = 0
  const notifiers = new Map<Worker, (notice: unknown) => void>()
  const handlers = options.handlers(notice => { for (const notify of notifiers.values()) notify(notice) })

  const fork = (): void => {
    const worker = cluster.fork(options.env)
    started.set(worker, Date.now())
    notifiers.set(worker, serve(clusterWorkerEndpoint(worker), handlers).notify)
  }

  const stopAll = (exitCode: number): void => {
    if (exitCode !== 0) process.exitCode = exitCode
    if (stopping) return
    stopping = true
    // a worker that got the signal already (a signal to the process group) keeps draining when it gets it again
    for (const worker of started.keys()) worker.process.kill('SIGTERM')
    if (started.size === 0) process.exit(exitCode)
    setTimeout(() => {
      for (const worker of started.keys()) worker.process.kill('SIGKILL')
      process.exit(exitCode === 0 ? 1 : exitCode)
    }, SHUTDOWN_MS).unref()
  }

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0)
    started.delete(worker)
    notifiers.delete(worker)
    if (stopping) {
      // a worker that could not finish its requests makes the service's exit a failure too
      if (code !== 0 && process.exitCode === undefined) process.exitCode = code ?? 1
      if (started.size === 0) process.exit(Number(process.exitCode ?? 0))
      return
    }
    if (code === EX_CONFIG) {
      process.stderr.write('a worker stopped on a configuration error: stopping\n')
      stopAll(EX_CONFIG)
      return
    }
    // a worker that keeps dying at start (the port is taken, an engine cannot load) stops the service
    quickDeaths = lived < 5_000 ? quickDeaths + 1 : 0
    if (quickDeaths > 5) {
      process.stderr.write('workers keep dying right after start: stopping\n')
      stopAll(1)
      return
    }
    process.stderr.write(`worker ${worker.process.pid} exited (${signal ?? code}); starting another\n`)
    setTimeout(fork, quickDeaths * 500)
  })

  // SIGHUP too: a terminal that hung up (make run in a closed session) stops the service as Ctrl-C does
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      if (!stopping) process.stderr.write(`${signal}: stopping ${started.size} workers after their requests in flight\n`)
      stopAll(0)
    })
  }
  for (let i = 0; i < options.workers; i++) fork()
}
