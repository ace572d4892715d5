/**
 * Graceful shutdown over real HTTP, as one process and as a cluster of two workers: SIGTERM or
 * SIGINT, to the service's process alone or to its whole process group (Ctrl-C in a terminal,
 * systemd's default KillMode: every worker then gets the signal twice, from the terminal and from
 * its primary), lets a bulk translation in flight finish with 200, refuses new connections, and
 * the service exits 0 in bounded time, leaving no Apertium process behind.
 */
import { existsSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { describe, expect, it } from 'vitest'
import { commandOf, descendants } from '../helpers/proc.js'
import { startService } from '../helpers/service.js'

const SUBJECTS = ['The committee', 'Our neighbour', 'The old teacher', 'A young doctor', 'The city council', 'My brother', 'The engineers', 'The small company', 'Her grandmother', 'The new manager']
const VERBS = ['reviewed', 'rejected', 'discussed', 'praised', 'criticised', 'signed', 'printed', 'translated', 'defended', 'explained']
const OBJECTS = ['the proposal', 'the long report', 'the budget', 'the letter', 'the contract', 'the plan', 'the old map', 'the recipe', 'the schedule', 'the price list']
const TIMES = ['yesterday', 'last week', 'in the morning', 'after lunch', 'before the meeting', 'on Monday', 'at night', 'in the spring', 'during the trip', 'without delay']
/** Sentence n of 10,000 distinct ones (the engine gets no repeats to share). */
const sentence = (n: number): string =>
  `${SUBJECTS[n % 10]} ${VERBS[Math.floor(n / 10) % 10]} ${OBJECTS[Math.floor(n / 100) % 10]} ${TIMES[Math.floor(n / 1000) % 10]}.`

const CASES: Array<[string, string, NodeJS.Signals, 'process' | 'group']> = [
  ['one process', '1', 'SIGTERM', 'process'],
  ['one process', '1', 'SIGINT', 'group'],
  ['two workers', '2', 'SIGTERM', 'process'],
  ['two workers', '2', 'SIGTERM', 'group'],
  ['two workers', '2', 'SIGINT', 'group'],
  // a terminal hung up (make run in a closed SSH session): the same drain (a probe's primary exited at once with 129, its requests cut)
  ['two workers', '2', 'SIGHUP', 'process'],
  ['two workers', '2', 'SIGHUP', 'group']
]

describe.each(CASES)('%s', (_, workers, signal, to) => {
  it(`finishes the bulk translation in flight with 200 after ${signal} to its ${to}, then exits 0`, async () => {
    // at info level the service logs each request as it comes: the signal is sent once the bulk request has arrived
    const service = await startService({ WORKERS: workers, LOG_LEVEL: 'info' }, 60_000, { group: to === 'group' })
    try {
      // warm en->es so the bulk request spends its time translating
      expect((await service.post('/language/translate', { document: { value: 'Hello.' }, source: 'en', targets: ['es'] })).status).toBe(200)
      const documents = Array.from({ length: 100 }, (_, i) => ({ value: Array.from({ length: 20 }, (_, k) => sentence(i * 20 + k)).join(' ') }))
      const started = Date.now()
      const inFlight = service.post('/language/translate/bulk', { documents, source: 'en', targets: ['es'], options: { cache: false } })
      let answeredAt = 0
      inFlight.then(() => { answeredAt = Date.now() }, () => {})
      // a connection whose request has not been read yet is idle to the server, and closed on shutdown: wait for it to arrive
      for (let i = 0; i < 200 && !service.output().includes('"url":"/language/translate/bulk"'); i++) await new Promise(resolve => setTimeout(resolve, 25))
      await new Promise(resolve => setTimeout(resolve, 200))
      // the en->es pipeline's processes (Apertium runs in a thread, each pipeline in a process group of its own)
      const pipeline = descendants(service.child.pid!).filter(pid => /apertium|lt-proc|cg-proc|lrx-proc/.test(commandOf(pid)))
      expect(pipeline.length).toBeGreaterThan(0)
      const killedAt = Date.now()
      if (to === 'group') process.kill(-service.child.pid!, signal)
      else service.child.kill(signal)
      const answer = await inFlight
      // a problem's detail names every document first: its end says what failed
      expect(answer.status, String(answer.json['detail'] ?? JSON.stringify(answer.json)).slice(-400)).toBe(200)
      // it was still being translated when the signal came
      expect(answeredAt).toBeGreaterThan(killedAt)
      expect(JSON.stringify(answer.json)).toContain('comité')
      expect(answer.json).toHaveLength(100)
      const { code } = await service.exited
      expect(code).toBe(0)
      expect(Date.now() - started).toBeLessThan(20_000)
      // nothing listens any more, and no pipeline process is left behind
      await expect(fetch(`${service.base}/health`)).rejects.toThrow()
      // a connection whose request has not been read yet is idle to the server, and closed on shutdown: wait for it to arrive
      for (let i = 0; i < 200 && !service.output().includes('"url":"/language/translate/bulk"'); i++) await new Promise(resolve => setTimeout(resolve, 25))
      await new Promise(resolve => setTimeout(resolve, 200))
      expect(pipeline.filter(pid => existsSync(`/proc/${pid}`) && commandOf(pid) !== '')).toEqual([])
    } finally {
      await service.stop()
    }
  }, 60_000)
})

describe('connections with no request in progress', () => {
  it('do not hold a shutdown: one that sent nothing, one that sent half a request, one answered before its body was read (exit 0 at once, was 1 after 10 s)', async () => {
    const service = await startService({ WORKERS: '1' })
    const { port } = new URL(service.base)
    const open = (first?: string): Promise<Socket> => new Promise((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => { if (first !== undefined) socket.write(first); resolve(socket) })
      socket.on('error', () => {})
      socket.once('error', reject)
    })
    try {
      const sockets = [
        await open(),
        await open('GET /health HTTP/1.1\r\nHost: x\r\n'),
        // no token: answered 401 at once, its 100 KB body never read
        await open('POST /language/detect HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"document":')
      ]
      await new Promise(resolve => setTimeout(resolve, 300))
      const killedAt = Date.now()
      service.child.kill('SIGTERM')
      const { code } = await service.exited
      expect(code).toBe(0)
      expect(Date.now() - killedAt).toBeLessThan(5000)
      for (const socket of sockets) socket.destroy()
    } finally {
      await service.stop()
    }
  }, 60_000)
})

describe('REQUEST_TIMEOUT_MS', () => {
  it('answers 408 to a body sent a byte a second soon after the timeout (was after 85 s for 3 s)', async () => {
    const service = await startService({ WORKERS: '1', REQUEST_TIMEOUT_MS: '2000' })
    const { port } = new URL(service.base)
    try {
      const started = Date.now()
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(`POST /language/detect HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${service.token}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n`)
          const drip = setInterval(() => socket.write(' '), 500)
          socket.once('close', () => clearInterval(drip))
        })
        socket.once('data', data => { resolve(data.toString('latin1').split('\r\n')[0]!); socket.destroy() })
        socket.once('error', reject)
        // within the test's own time, so that the service is stopped below whatever happens
        setTimeout(() => { socket.destroy(); reject(new Error('no answer in 30 s')) }, 30_000).unref()
      })
      expect(answer).toBe('HTTP/1.1 408 Request Timeout')
      expect(Date.now() - started).toBeLessThan(10_000)
    } finally {
      await service.stop()
    }
  }, 60_000)
})
