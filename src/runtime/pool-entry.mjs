// Piscina's entry for every pool thread (pool.ts). From sources (tests, npm run dev) the thread
// registers tsx first: a thread does not inherit the loader hooks of its process.
import { existsSync } from 'node:fs'

const built = new URL('./pool-thread.js', import.meta.url)
if (!existsSync(built)) {
  const { register } = await import('tsx/esm/api')
  register()
}
const { runCall } = await import(existsSync(built) ? built.href : new URL('./pool-thread.ts', import.meta.url).href)
export default runCall
