/**
 * What must come back exactly through real translation (issue 25, items 1-3): URLs, e-mail
 * addresses, paths and file names in every format, the source's own character references in
 * HTML, and control characters, while the prose around them is translated by the embedded Apertium.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { FastifyInstance } from 'fastify'
import { parseFragment, type DefaultTreeAdapterTypes as T } from 'parse5'
import { bearer, testApp, tokenFor } from '../../helpers/app.js'

let app: FastifyInstance
let auth: Record<string, string>
beforeAll(async () => {
  app = await testApp({}, { engines: true })
  auth = bearer(await tokenFor(app))
})
afterAll(async () => { await app.close() })

const post = async (url: string, payload: unknown): Promise<{ status: number, body: any }> => {
  const res = await app.inject({ method: 'POST', url, headers: auth, payload: payload as object })
  return { status: res.statusCode, body: res.json() }
}

/** Each target's value of a translation, after checking the answer is a 200. */
async function translate (value: unknown, mimeType: string, targets = ['es', 'ca']): Promise<Record<string, unknown>> {
  const { status, body } = await post('/language/translate', { document: { value, mime_type: mimeType }, source: 'en', targets })
  expect(status, JSON.stringify(body)).toBe(200)
  return Object.fromEntries(targets.map(t => [t, body.results[t].value]))
}

const KEPT = [
  'https://example.com/path?q=the+house',
  'www.example.org/the/red/house',
  'example.com',
  'john.doe@example.org',
  '/usr/local/bin/house',
  'C:\\Users\\house\\notes.txt',
  './the/house.txt',
  '~/red/house.md',
  'index.html',
  'open_the_house',
  'openTheHouse()',
  '--dry-run'
]

/** Every kept string occurs in `out` as often as in `source`, and what is left around them was translated. */
function expectKeptAndTranslated (source: string, out: string, label: string): void {
  let restSource = source
  let restOut = out
  for (const kept of KEPT) {
    const count = source.split(kept).length - 1
    if (count === 0) continue
    expect(out.split(kept).length - 1, `${label}: ${kept} in ${out}`).toBe(count)
    restSource = restSource.split(kept).join('')
    restOut = restOut.split(kept).join('')
  }
  expect(restOut, label).not.toBe(restSource)
  // the English words around them were translated
  expect(restOut, `${label}: ${out}`).not.toMatch(/\b(?:house|information|Visit|Write|about)\b/)
}

const PROSE: [string, string, string, string, string] = [
  'Visit https://example.com/path?q=the+house for more information.',
  'The house is at www.example.org/the/red/house, and example.com is another house.',
  'Write to john.doe@example.org about the house.',
  'Run /usr/local/bin/house or C:\\Users\\house\\notes.txt, then ./the/house.txt and ~/red/house.md.',
  'Open index.html in the house, call openTheHouse() and open_the_house with --dry-run.'
]

describe('URLs, e-mail addresses, paths and code come back byte for byte', () => {
  it('in text/plain, en -> es and en -> ca', async () => {
    const source = PROSE.join(' ')
    const out = await translate(source, 'text/plain')
    for (const [target, value] of Object.entries(out)) expectKeptAndTranslated(source, value as string, target)
  })

  it('in text/html text and in title and alt attributes', async () => {
    const source = `<p>${PROSE[0]} ${PROSE[2]}</p>` +
      `<p title="${PROSE[1]}">${PROSE[3]}</p>` +
      `<img src="photo.png" alt="${PROSE[4]}">`
    const out = await translate(source, 'text/html')
    for (const [target, value] of Object.entries(out)) {
      expectKeptAndTranslated(source, value as string, target)
      expect(value).toMatch(/^<p>.*<\/p><p title="[^"]*www\.example\.org\/the\/red\/house[^"]*">.*<\/p><img src="photo\.png" alt="[^"]*openTheHouse\(\)[^"]*">$/)
    }
  })

  it('in application/json string leaves', async () => {
    const source = { intro: PROSE[0], details: [PROSE[1], PROSE[2]], nested: { run: PROSE[3], code: PROSE[4] }, count: 3 }
    const out = await translate(source, 'application/json')
    for (const [target, value] of Object.entries(out)) {
      const v = value as { intro: string, details: string[], nested: { run: string, code: string }, count: number }
      expect(v.count).toBe(3)
      expectKeptAndTranslated(PROSE[0], v.intro, target)
      expectKeptAndTranslated(PROSE[1], v.details[0]!, target)
      expectKeptAndTranslated(PROSE[2], v.details[1]!, target)
      expectKeptAndTranslated(PROSE[3], v.nested.run, target)
      expectKeptAndTranslated(PROSE[4], v.nested.code, target)
    }
  })
})

describe('HTML character references keep their spelling', () => {
  it('in translated text and in a title attribute, en -> es', async () => {
    const references = ['&euro;', '&mdash;', '&eacute;', '&quot;', '&#169;']
    const text = 'The &quot;red&quot; house of Jos&eacute; &mdash; 5&euro; &#169; Acme'
    const source = `<p title="${text}">${text}.</p>`
    const out = (await translate(source, 'text/html', ['es'])).es as string
    const title = /^<p title="([^"]*)">(.*)<\/p>$/.exec(out)
    expect(title, out).not.toBeNull()
    for (const part of [title![1]!, title![2]!]) {
      for (const reference of references) expect(part, out).toContain(reference)
      expect(part).toMatch(/casa/)
      expect(part).not.toMatch(/[€—é"©]/)
    }
  })
})

describe('control characters stay where they were', () => {
  // one rule for every endpoint: NUL and the other C0 controls an engine may drop are kept, never refused
  const NUL = 'The nul\u0000byte is in the red house.\u0007 The car is red.'

  it('through translate, in text/plain and a JSON leaf', async () => {
    const plain = (await translate(NUL, 'text/plain', ['es'])).es as string
    expect(plain).toContain(' nul\u0000')
    expect(plain).toContain('.\u0007 ')
    expect(plain).toMatch(/casa.*coche/)
    expect([...plain].filter(c => c < ' ')).toEqual(['\u0000', '\u0007'])
    const json = (await translate({ a: NUL, b: ['Ana\u0001x and the house'] }, 'application/json', ['es'])).es as { a: string, b: string[] }
    expect(json.a).toBe(plain)
    expect(json.b[0]!.startsWith('Ana\u0001x ')).toBe(true)
    expect(json.b[0]).toMatch(/casa/)
  })

  it('through substitute, edit and detect', async () => {
    const substituted = await post('/language/substitute', { document: { value: NUL, language: 'en' }, substitutions: [{ text: 'red', substitution: 'blue' }] })
    expect(substituted.status, JSON.stringify(substituted.body)).toBe(200)
    expect(substituted.body.document.value).toBe(NUL.replaceAll('red', 'blue'))
    const edited = await post('/language/edit', { document: { value: 'Their nul\u0000byte is in the libary.', language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(edited.status, JSON.stringify(edited.body)).toBe(200)
    expect(edited.body.document.value).toContain('nul\u0000byte')
    expect(edited.body.document.value).toContain('library')
    const detected = await post('/language/detect', { document: { value: NUL } })
    expect(detected.status, JSON.stringify(detected.body)).toBe(200)
    expect(detected.body.language).toBe('en')
  })
})

describe('decomposed accents (macOS writes NFD) translate as the composed letters do', () => {
  it('gives the engine composed text: no mark lands on another word', async () => {
    const decomposed = 'El cafe\u0301 esta\u0301 abierto. La nin\u0303a come.'
    const { status, body } = await post('/language/translate', { document: { value: decomposed }, source: 'es', targets: ['en'] })
    expect(status, JSON.stringify(body)).toBe(200)
    const fromComposed = await post('/language/translate', { document: { value: decomposed.normalize('NFC') }, source: 'es', targets: ['en'] })
    expect(body.results.en.value).toBe(fromComposed.body.results.en.value)
    expect(body.results.en.value).not.toMatch(/\p{M}/u)
    expect(body.results.en.value).toMatch(/girl/)
    // the same language is no translation: the text comes back as it was sent, decomposed
    const same = await post('/language/translate', { document: { value: decomposed }, source: 'es', targets: ['es'] })
    expect(same.body.results.es.value).toBe(decomposed)
  })
})

describe('an inline element whose words Apertium merges or drops', () => {
  it('leaves no empty markup behind (a probe saw "modesta.__" and "lo.<tt></tt>")', async () => {
    const md = (await translate('Adding listeners _will_ impose a **modest** penalty.\n', 'text/markdown', ['es'])).es as string
    expect(md).not.toMatch(/__|\*\*\*\*|\*\*\s*$|_\s*$/)
    const html = (await translate('<p>The inner <tt>do</tt>-loop runs. The <em>will</em> is here.</p>', 'text/html', ['es'])).es as string
    expect(html).not.toMatch(/<(tt|em)><\/\1>/)
  })
})

describe('sibling links of an e-mail footer (Mailchimp email-blueprints) through Apertium', () => {
  /**
   * Each <a> of an HTML fragment as parse5 reads it, and whether it ends at its own </a>: a link
   * written inside another is closed where the inner one starts, so it would have none.
   */
  const links = (fragment: string): Array<{ href: string, closed: boolean }> => {
    const found: Array<{ href: string, closed: boolean }> = []
    const walk = (node: T.ParentNode): void => {
      for (const child of node.childNodes) {
        if (!('tagName' in child)) continue
        if (child.tagName === 'a') found.push({ href: child.attrs.find(a => a.name === 'href')?.value ?? '', closed: child.sourceCodeLocation?.endTag !== undefined })
        walk(child)
      }
    }
    walk(parseFragment(fragment, { sourceCodeLocationInfo: true }))
    return found
  }

  it('keeps links separated by " | " siblings in text/html, however Apertium moves their words', async () => {
    for (const source of [
      '<p><a href="/u">unsubscribe from this list</a> | <a href="/p">update subscription preferences</a></p>',
      '<p><a href="/t">follow on Twitter</a> | <a href="/f">friend on Facebook</a> | <a href="/w">forward to a friend</a></p>'
    ]) {
      const out = (await translate(source, 'text/html', ['es'])).es as string
      const found = links(out)
      expect(found.length, out).toBeGreaterThan(0)
      expect(found.filter(l => !l.closed), out).toEqual([])
      expect(new Set(found.map(l => l.href)), out).toEqual(new Set(links(source).map(l => l.href)))
    }
  })

  it('never writes a Markdown link inside another', async () => {
    const out = (await translate('[unsubscribe from this list](/u) | [update subscription preferences](/p)', 'text/markdown', ['es'])).es as string
    const labels = [...out.matchAll(/\[((?:[^\]\\]|\\.)*)\]\((\/[up])\)/g)]
    expect(new Set(labels.map(m => m[2])), out).toEqual(new Set(['/u', '/p']))
    for (const [, label] of labels) expect(label, out).not.toMatch(/(?<!\\)[[\]]/)
    expect(out.replace(/\[((?:[^\]\\]|\\.)*)\]\((\/[up])\)/g, ''), out).not.toMatch(/\]\(/)
  })
})
