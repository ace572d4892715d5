/**
 * Real social posts (test/data/social-posts: Mastodon statuses, Discourse cooked posts, Lemmy and
 * Misskey HTML and Markdown, from those projects' own docs and fixtures) through every engine
 * (issue 31, part 2): the service runs as its own process with Apertium and a local fake of each
 * outside engine. Markup and verbatim parts (links, mentions, hashtags, shortcodes, code) come back
 * byte for byte, prose translated; the fakes write text in capitals, so with them the whole answer
 * is known: the post, its prose in capitals.
 */
import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT, JWT_SECRET } from '../helpers/app.js'
import { startOutsideEngines, type OutsideEngines } from '../helpers/outside-engines.js'
import { startService, type RunningService } from '../helpers/service.js'

interface Post {
  file: string
  keep: string[]
  prose: string[]
}

const DIR = new URL('../data/social-posts/', import.meta.url)
const POSTS = (JSON.parse(readFileSync(new URL('posts.json', DIR), 'utf8')) as { posts: Post[] }).posts
  .map(post => ({ ...post, text: readFileSync(new URL(post.file, DIR), 'utf8') }))
const MIME = (file: string): string => file.endsWith('.html') ? 'text/html' : file.endsWith('.md') ? 'text/markdown' : 'text/plain'

const FAKES = ['deepl', 'google-cloud', 'google', 'openai', 'libretranslate'] as const
const LT_KEY = 'social-posts-lt-key-0123456789'

let engines: OutsideEngines | undefined
let service: RunningService

beforeAll(async () => {
  engines = await startOutsideEngines()
  service = await startService({
    ...engines.env,
    AUTH_CLIENTS: JSON.stringify([{ id: CLIENT.id, secret: CLIENT.secret, scopes: ['access'], api_keys: [LT_KEY] }]),
    AUTH_JWT_SECRET: JWT_SECRET
  })
}, 90_000)

afterAll(async () => {
  await service?.stop()
  await engines?.close()
})

/** en -> es through one engine: the translated post. */
async function translate (engine: string, value: string, mime: string): Promise<string> {
  const res = await service.post('/language/translate', { source: 'en', targets: ['es'], document: { value, mime_type: mime }, options: { service: engine, cache: false } })
  expect(res.status, `${engine} ${mime}: ${JSON.stringify(res.json)}`).toBe(200)
  return res.json['results']['es']['value'] as string
}

/** How often `part` occurs in `text`. */
const count = (text: string, part: string): number => text.split(part).length - 1
/** The tags of an HTML post, in order, the values of the attributes that are translated (alt, title...) left out. */
const tags = (html: string): string[] => (html.match(/<[^>]+>/g) ?? []).map(tag => tag.replace(/\b(alt|title|placeholder|aria-label)="[^"]*"/g, '$1=""'))
/** A text as a fake's answer compares with its source: case folded (ß to ss), white space runs as one space. */
const folded = (text: string): string => text.toUpperCase().toLowerCase().replace(/\s+/g, ' ')

/** What holds for every answer: each kept part as often as in the post, markup in the same order (Apertium may reorder words, and their tags with them). */
function expectKept (post: typeof POSTS[number], out: string, inOrder: boolean): void {
  for (const part of post.keep) expect(count(out, part), `${post.file}: ${JSON.stringify(part)} in ${out}`).toBe(count(post.text, part))
  if (MIME(post.file) !== 'text/html') return
  if (inOrder) expect(tags(out), post.file).toEqual(tags(post.text))
  else expect(tags(out).sort(), post.file).toEqual(tags(post.text).sort())
}

describe.each(FAKES)('real social posts through %s', (engine) => {
  it.each(POSTS.map(p => [p.file, p] as const))('%s: the post itself, its prose in capitals', async (_file, post) => {
    const out = await translate(engine, post.text, MIME(post.file))
    expectKept(post, out, true)
    expect(folded(out)).toBe(folded(post.text))
    for (const word of post.prose) expect(out, `${post.file}: ${word}`).toContain(word.toUpperCase())
    if (post.prose.length === 0 && !/\p{L}/u.test(post.text.replace(/<[^>]*>/g, '').replace(/[@#:][\p{L}\p{N}_]+/gu, ''))) expect(out).toBe(post.text)
  })
})

describe('real social posts through Apertium', () => {
  it.each(POSTS.map(p => [p.file, p] as const))('%s: markup and verbatim parts kept, prose translated', async (_file, post) => {
    const out = await translate('apertium', post.text, MIME(post.file))
    expectKept(post, out, false)
    // the words of the answer's text, outside its markup and kept parts (a link's URL may hold a prose word)
    const text = post.keep.reduce((t, part) => t.replaceAll(part, ' '), out).replace(/<[^>]*>/g, ' ')
    for (const word of post.prose) expect(text, `${post.file}: ${word}`).not.toMatch(new RegExp(`(?<![\\p{L}])${word}(?![\\p{L}])`, 'u'))
  })
})

describe('real Mastodon statuses through the LibreTranslate-compatible API, as Mastodon sends them', () => {
  const statuses = POSTS.filter(p => p.file.startsWith('mastodon-') && p.file.endsWith('.html'))
  it.each(statuses.map(p => [p.file, p] as const))('%s', async (_file, post) => {
    // Mastodon's LibreTranslate client: POST {endpoint}/translate with q, source, target, format html, api_key
    const res = await fetch(`${service.base}/libretranslate/translate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ q: post.text, source: 'en', target: 'es', format: 'html', api_key: LT_KEY })
    })
    const body = await res.json() as { translatedText: string }
    expect(res.status, JSON.stringify(body)).toBe(200)
    expectKept(post, body.translatedText, false)
  })
})
