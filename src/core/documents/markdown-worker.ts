/** Worker thread that parses Markdown, so a pathological input can be stopped (see markdown-guard.ts). */
import { parentPort } from 'node:worker_threads'

// a sibling module: .ts when running from sources, .js when built
const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js'
const { MAX_TREE_DEPTH, parseMarkdown, treeDepth } = await import(new URL(`./markdown-parse${ext}`, import.meta.url).href) as typeof import('./markdown-parse.js')

parentPort!.on('message', ({ id, source }: { id: number, source: string }) => {
  // a source that cannot be parsed or posted (too deep for a stack) is refused, never a crash
  try {
    const tree = parseMarkdown(source)
    if (treeDepth(tree) > MAX_TREE_DEPTH) parentPort!.postMessage({ id, refused: `it nests more than ${MAX_TREE_DEPTH} levels deep` })
    else parentPort!.postMessage({ id, tree })
  } catch (err) {
    parentPort!.postMessage({ id, refused: err instanceof RangeError ? 'it nests too deeply' : (err as Error).message })
  }
})
