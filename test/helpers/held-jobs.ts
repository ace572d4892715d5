/**
 * Jobs a test holds: each job's request is its name, and its work runs until the test ends it
 * (or the job is aborted), so a test sees which jobs hold the slots at any moment.
 */
import type { JobQueue } from '../../src/jobs/queue.js'

export interface HeldJobs {
  /** Names of the jobs whose work has started, in order. */
  started: string[]
  /** Ends the work of the job `name`. */
  end: (name: string) => void
  /** Ends every job's work that is still running. */
  endAll: () => void
  /** Waits for `done` to hold, checking every 10 ms; fails past `boundMs`, far above any run's. */
  until: (done: () => boolean | Promise<boolean>, boundMs?: number) => Promise<void>
}

export function holdJobs (queue: JobQueue): HeldJobs {
  const started: string[] = []
  const ends = new Map<string, () => void>()
  queue.setWork(async (request, signal) => {
    const name = request.toString()
    await new Promise<void>((resolve, reject) => {
      ends.set(name, resolve)
      signal.addEventListener('abort', () => { reject(signal.reason) }, { once: true })
      started.push(name)
    })
    return JSON.stringify({ name })
  }, () => ({ type: '/problems/internal-error', title: 'Internal server error', status: 500, detail: 'failed' }))
  return {
    started,
    end: name => { ends.get(name)!() },
    endAll: () => { for (const end of ends.values()) end() },
    until: async (done, boundMs = 10_000) => {
      const end = Date.now() + boundMs
      while (!await done()) {
        if (Date.now() > end) throw new Error(`still waiting, jobs started: ${started.join(', ')}`)
        await new Promise(resolve => setTimeout(resolve, 10))
      }
    }
  }
}
