// Copies the data files the build needs next to the compiled code (tsc copies only what is imported).
import { copyFileSync, cpSync } from 'node:fs'

for (const file of ['providers/detection/model.json']) copyFileSync(`src/${file}`, `dist/${file}`)
// the playground page (src/http/web.ts serves it from dist/web)
cpSync('src/web', 'dist/web', { recursive: true })
