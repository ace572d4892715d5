/** Worker thread that parses Markdown, so a pathological input can be stopped (see markdown-guard.ts). */
import { parentPort } from 'node:worker_threads'

// a sibling module: .ts when running from sources, .js when built
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const { parseMarkdown } = await import(new URL(`./markdown-parse${ext}`, import.meta.url).href) as typeof import('./markdown-parse.js')

parentPort!.on('message', ({ id, source }: { id: number, source: string }) => {
  try {
    parentPort!.postMessage({ id, tree: parseMarkdown(source) })
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error).message })
  }
})
