/**
 * Fits the weights of the English features (src/providers/offline-analyzer/sentiment/english.ts) by logistic regression
 * on the odd lines of the dev set, and reports accuracy on the odd (fit) and even (check) lines.
 * Run: npx tsx bench/sentiment/fit.ts
 */
import { readFileSync } from 'node:fs'
import { EnglishAnalyser } from '../../src/providers/offline-analyzer/sentiment/english.js'
import type { EnglishFeatures } from '../../src/providers/offline-analyzer/sentiment/english.js'
import { sentencesOf, tokenize } from '../../src/providers/offline-analyzer/sentiment/tokens.js'

const DEV = new URL('../../test/data/sentiment-dev.jsonl', import.meta.url)
const rows = readFileSync(DEV, 'utf8').trim().split('\n').map(line => JSON.parse(line) as { label: string, text: string })
const english = await EnglishAnalyser.load()
const NAMES = ['vader', 'afinn', 'own', 'wink', 'fixed', 'bareNegations'] as const

/** Per row, the features summed over its sentences. */
const data = rows.map(row => {
  const x = NAMES.map(() => 0)
  for (const sentence of sentencesOf(tokenize(row.text))) {
    const f: EnglishFeatures = english.features(row.text, sentence)
    NAMES.forEach((name, k) => { x[k]! += f[name] })
  }
  return { x, y: row.label === 'positive' ? 1 : 0 }
})

/** Logistic regression without intercept (a text with no evidence must stay at 0), by Newton's method with a small ridge. */
function fit (set: typeof data): number[] {
  const d = NAMES.length
  const w = NAMES.map(() => 0)
  for (let iteration = 0; iteration < 30; iteration += 1) {
    const grad = w.map((v) => 0.01 * v)
    const hessian = NAMES.map((_, a) => NAMES.map((_, b) => (a === b ? 0.01 : 0)))
    for (const { x, y } of set) {
      const z = x.reduce((s, v, k) => s + v * w[k]!, 0)
      const p = 1 / (1 + Math.exp(-z))
      for (let a = 0; a < d; a += 1) {
        grad[a]! += (p - y) * x[a]!
        for (let b = 0; b < d; b += 1) hessian[a]![b]! += p * (1 - p) * x[a]! * x[b]!
      }
    }
    const step = solve(hessian, grad)
    w.forEach((_, k) => { w[k]! -= step[k]! })
  }
  return w
}

/** Solves A x = b by Gaussian elimination with partial pivoting. */
function solve (a: number[][], b: number[]): number[] {
  const n = b.length
  const m = a.map((row, i) => [...row, b[i]!])
  for (let col = 0; col < n; col += 1) {
    let pivot = col
    for (let r = col + 1; r < n; r += 1) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r
    ;[m[col], m[pivot]] = [m[pivot]!, m[col]!]
    for (let r = 0; r < n; r += 1) {
      if (r === col) continue
      const f = m[r]![col]! / m[col]![col]!
      for (let c = col; c <= n; c += 1) m[r]![c]! -= f * m[col]![c]!
    }
  }
  return m.map((row, i) => row[n]! / row[i]!)
}

function accuracy (set: typeof data, w: number[]): number {
  let ok = 0
  for (const { x, y } of set) {
    const z = x.reduce((s, v, k) => s + v * w[k]!, 0)
    if ((y === 1 && z > 0) || (y === 0 && z < 0)) ok += 1
  }
  return ok / set.length
}

const odd = data.filter((_, i) => i % 2 === 0)
const even = data.filter((_, i) => i % 2 === 1)
const wOdd = fit(odd)
const wAll = fit(data)
const scale = (w: number[]): number[] => w.map(v => v / w[0]!)
console.log('raw odd weights', wOdd.map(v => +v.toFixed(4)).join(', '))
console.log('weights fitted on odd lines (relative to vader):', Object.fromEntries(NAMES.map((n, k) => [n, +scale(wOdd)[k]!.toFixed(3)])))
console.log(`odd (fit) ${accuracy(odd, wOdd).toFixed(4)}  even (check) ${accuracy(even, wOdd).toFixed(4)}`)
console.log('weights fitted on all lines:', Object.fromEntries(NAMES.map((n, k) => [n, +scale(wAll)[k]!.toFixed(3)])))
console.log(`all ${accuracy(data, wAll).toFixed(4)}`)
for (const name of NAMES) {
  const k = NAMES.indexOf(name)
  const w = NAMES.map((_, j) => (j === k ? 1 : 0))
  console.log(`${name} alone: ${accuracy(data, w).toFixed(4)}`)
}
const zero = data.filter(d => d.x.every(v => v === 0)).length
console.log('rows with no evidence:', zero)
if (process.env.SHOW_ERRORS) {
  data.forEach((d, i) => {
    const z = d.x.reduce((s, v, k) => s + v * wAll[k]!, 0)
    if (!((d.y === 1 && z > 0) || (d.y === 0 && z < 0))) console.log(d.y ? 'POS' : 'NEG', z.toFixed(2), d.x.map(v => +v.toFixed(2)).join(' '), '|', rows[i]!.text)
  })
}
