/**
 * autocannon in a process of its own (so a bench can pin the load generator to other cores than
 * the service's, with taskset): reads its job as JSON from argv[2], rotates through the bodies,
 * and prints {requests, duration, non2xx, errors, p50, p99} as JSON on its last line.
 */
import autocannon from 'autocannon'

interface Job { url: string, connections: number, duration: number, headers: Record<string, string>, bodies: string[] }

const job = JSON.parse(process.argv[2]!) as Job
let next = 0
const latencies: number[] = []
const result = await new Promise<autocannon.Result>((resolve, reject) => {
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.duration,
    headers: job.headers,
    requests: [{ method: 'POST', setupRequest: req => ({ ...req, body: job.bodies[next++ % job.bodies.length]! }) }]
  }, (err: unknown, r) => err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r))
  // autocannon 9 emits (client, statusCode, bytes, responseTime)
  instance.on('response', (...args: unknown[]) => { latencies.push(args[3] as number) })
})
latencies.sort((a, b) => a - b)
const at = (p: number): number => latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * p) - 1)] ?? NaN
console.log(JSON.stringify({ requests: result.requests.total, duration: result.duration, non2xx: result.non2xx, errors: result.errors, p50: at(0.5), p99: at(0.99) }))
