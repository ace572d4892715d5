// Copies the data files the build needs next to the compiled code (tsc copies only what is imported).
import { copyFileSync, cpSync } from 'node:fs'

// the thread pool's entry (plain JavaScript: Piscina loads it by path)
for (const file of ['providers/detection/model.json', 'runtime/pool-entry.mjs']) copyFileSync(`src/${file}`, `dist/${file}`)
// the playground page (src/http/web.ts serves it from dist/web)
cpSync('src/web', 'dist/web', { recursive: true })
