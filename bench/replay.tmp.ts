import { readFileSync } from 'node:fs'
import { startService } from '../test/helpers/service.js'
const files = process.argv.slice(2)
const s = await startService({ RATE_LIMIT_MAX: '1000000000', NODE_OPTIONS: '--max-old-space-size=1024 --max-semi-space-size=8' })
for (const f of files) {
  const c = JSON.parse(readFileSync(f, 'utf8')).case
  for (let i = 0; i < 2; i++) {
    const t0 = performance.now()
    const r = await fetch(s.base + c.url, { method: c.method, headers: { ...c.headers, authorization: `Bearer ${s.token}` }, body: c.body })
    const text = await r.text()
    console.log(f.split('/').pop(), r.status, (performance.now() - t0).toFixed(0), 'ms', text.slice(0, 160))
  }
}
await s.stop()
