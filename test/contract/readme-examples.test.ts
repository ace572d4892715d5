/**
 * The documentation's request examples (README.md and docs/api.md) answer what the documentation
 * says they answer: every `curl` of a /language endpoint in a ```sh block is sent to the real app (Apertium, detector, offline
 * analysers and editor), and every fully written `"key":value` of the answer shown after it (in
 * `# ` comment lines, or the ```json block that follows) must be in the real answer. Elided parts
 * (`...`, `0.772...`) are not compared.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { bearer, testApp, tokenFor } from '../helpers/app.js'

interface Example {
  method: 'GET' | 'POST'
  url: string
  body?: unknown
  /** The answer as the documentation writes it (JSON with elisions). */
  answer: string
  /** Where it is written: the file, relative to the repository, and the line. */
  file: string
  line: number
}

/** The files whose examples are run: the README's one call, and every example of the API guide. */
const FILES = ['README.md', 'docs/api.md']

/** The curl examples of a Markdown file's ```sh blocks, each with the answer written after it. */
function examples (file: string): Example[] {
  const markdown = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8')
  const lines = markdown.split('\n')
  const out: Example[] = []
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue
    let end = i + 1
    while (end < lines.length && lines[end] !== '```') end++
    const block = lines.slice(i + 1, end)
    for (let j = 0; j < block.length; j++) {
      const start = /^curl -s http:\/\/localhost:8080(\/language\/\S+)/.exec(block[j]!)
      if (!start) continue
      // the command, with its continuation lines and a quoted body that may span lines
      let command = block[j]!
      let k = j + 1
      while (k < block.length && !block[k]!.startsWith('#') && (command.endsWith('\\') || (command.split("'").length - 1) % 2 === 1)) {
        command += '\n' + block[k]!
        k++
      }
      const comment: string[] = []
      while (k < block.length && block[k]!.startsWith('# ')) comment.push(block[k++]!.slice(2).trim())
      let answer = comment.join('')
      if (answer === '' && lines[end + 1] === '' && lines[end + 2] === '```json') {
        let close = end + 3
        while (close < lines.length && lines[close] !== '```') close++
        answer = lines.slice(end + 3, close).join('\n')
      }
      const body = /-d '([^']*)'/.exec(command)?.[1]
      out.push({
        method: body === undefined ? 'GET' : 'POST',
        url: start[1]!,
        ...(body === undefined ? {} : { body: JSON.parse(body) }),
        answer,
        file,
        line: i + 1 + j + 1
      })
    }
    i = end
  }
  return out
}

/** Every `"key":value` written in full (a string, a complete number, true, false, null), in compact JSON. */
function facts (answer: string): string[] {
  const compact = answer.replace(/\n\s*/g, '').replace(/":\s+/g, '":').replace(/,\s+"/g, ',"')
  const pattern = /"([^"\\]+)":("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:e-?\d+)?(?![\d.])|true|false|null)/g
  return [...compact.matchAll(pattern)]
    .filter(match => match[2] !== '"..."' && match[1] !== '...')
    .map(match => `"${match[1]}":${match[2]}`)
}

let app: FastifyInstance
let auth: Record<string, string>
beforeAll(async () => {
  app = await testApp({}, { engines: true })
  auth = bearer(await tokenFor(app))
})
afterAll(async () => { await app.close() })

describe('documentation examples', () => {
  const all = FILES.flatMap(examples)

  it('are found (the README\'s translate; translate, detect, edit, analyze, locale in docs/api.md)', () => {
    expect(all.filter(e => e.file === 'README.md').map(e => e.url)).toContain('/language/translate')
    const urls = all.filter(e => e.file === 'docs/api.md').map(e => e.url)
    for (const url of ['/language/translate', '/language/detect', '/language/edit', '/language/analyze', '/language/locale/pt-BR']) expect(urls).toContain(url)
    for (const example of all) expect(facts(example.answer).length, `${example.file} line ${example.line}`).toBeGreaterThanOrEqual(2)
  })

  it.each(all.map(e => [`${e.method} ${e.url} (${e.file} line ${e.line})`, e] as const))('%s answers what the documentation shows', async (_name, example) => {
    const res = await app.inject({ method: example.method, url: example.url, headers: auth, ...(example.body === undefined ? {} : { payload: example.body as object }) })
    expect(res.statusCode, res.body).toBe(200)
    const actual = JSON.stringify(res.json())
    for (const fact of facts(example.answer)) expect(actual, fact).toContain(fact)
  })
})
