/** Tasks for pool.test.ts: they spin, allocate, fail or say which thread they ran on. */
import { threadId } from 'node:worker_threads'
import { getHeapStatistics } from 'node:v8'
import { UpstreamError } from '../../../src/errors.js'

export function spin (ms: number): number {
  const until = performance.now() + ms
  while (performance.now() < until);
  return threadId
}

export function allocate (mb: number): number {
  const kept: number[][] = []
  for (let i = 0; i < mb; i++) kept.push(new Array(128 * 1024).fill(i))
  return kept.length
}

export function failTyped (): never {
  throw new UpstreamError('fake', 'answered HTTP 500')
}

export function thread (): number {
  return threadId
}

export async function idle (ms: number): Promise<number> {
  await new Promise(resolve => setTimeout(resolve, ms))
  return threadId
}

/** Spins until this thread has used `ms` of CPU time. */
export function burn (ms: number): number {
  const from = process.threadCpuUsage()
  for (;;) {
    const { user, system } = process.threadCpuUsage(from)
    if ((user + system) / 1000 >= ms) return threadId
  }
}

let held: number[][] | undefined
/** Holds `mb` MB until 50 ms after it ended (V8 has not freed them itself by then), and says its thread's heap (physical MB). */
export function grow (mb: number): { thread: number, physicalMb: number } {
  const kept: number[][] = held = []
  for (let i = 0; i < mb; i++) kept.push(new Array(128 * 1024).fill(i))
  setTimeout(() => { held = undefined }, 50)
  return { thread: threadId, physicalMb: getHeapStatistics().total_physical_size / 2 ** 20 }
}

/** This thread's heap (physical MB). */
export function heap (): { thread: number, physicalMb: number } {
  return { thread: threadId, physicalMb: getHeapStatistics().total_physical_size / 2 ** 20 }
}

/** How many MB grow() still holds. */
export function holding (): number {
  return held?.length ?? 0
}
