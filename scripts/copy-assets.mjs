// Copies the data files the build needs next to the compiled code (tsc copies only what is imported).
import { copyFileSync } from 'node:fs'

// the thread pool's entry (plain JavaScript: Piscina loads it by path)
for (const file of ['providers/detector/model.json', 'providers/detector/lexicon.bin', 'providers/detector/regression.bin', 'providers/detector/wordlists.bin', 'runtime/pool-entry.mjs']) copyFileSync(`src/${file}`, `dist/${file}`)
// (the playground page is not copied: src/http/web.ts serves web/ at the package root from src and dist alike)
