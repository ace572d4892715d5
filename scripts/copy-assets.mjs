// Copies the data files the build needs next to the compiled code (tsc copies only what is imported).
import { copyFileSync } from 'node:fs'

for (const file of ['providers/detection/model.json']) copyFileSync(`src/${file}`, `dist/${file}`)
