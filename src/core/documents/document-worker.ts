/** A document thread (see pool.ts): runs the document tasks it is sent and posts back each result or the error it threw. */
import { setPriority } from 'node:os'
import { parentPort } from 'node:worker_threads'

// below the event loop and the engine pipelines: on Linux a thread's nice value is its own, so
// document work takes the CPU left over rather than delaying every other request
try {
  setPriority(10)
} catch {
  // not permitted here: the thread runs at the process's priority
}

// sibling modules: .ts when running from sources, .js when built
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const { runTask } = await import(new URL(`./tasks${ext}`, import.meta.url).href) as typeof import('./tasks.js')
const { ValidationError } = await import(new URL(`../../errors${ext}`, import.meta.url).href) as typeof import('../../errors.js')

parentPort!.on('message', ({ id, task }: { id: number, task: import('./tasks.js').DocumentTask }) => {
  try {
    parentPort!.postMessage({ id, result: runTask(task) })
  } catch (err) {
    // a 400 about the request goes back as such; anything else is a fault of ours
    const message = 'this document nests too deeply to be processed; simplify it or send it as text/plain'
    const error = err instanceof ValidationError
      ? { invalid: true, message: err.message, errors: err.errors, aboutField: err.aboutField }
      : err instanceof RangeError
        ? { invalid: true, message, errors: [{ path: task.path, message }], aboutField: true }
        : { invalid: false, message: String((err as Error)?.stack ?? err) }
    parentPort!.postMessage({ id, error })
  }
})

// loaded: the pool may send work now
parentPort!.postMessage({ ready: true })
