/**
 * A package loaded on its first use rather than when the module naming it is imported: the
 * clients of outside services (DeepL, OpenAI, Redis) take 2-7 MB of heap each, which a process
 * configured without them need not hold (docs/benchmarks.md "Memory budget").
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/** `load()` returns the package's exports, requiring it once (a CommonJS build: the instance every importer of it gets). */
export function lazyPackage<T> (name: string): () => T {
  let exports: T | undefined
  return () => (exports ??= require(name) as T)
}
