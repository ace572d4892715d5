/**
 * POST /language/edit over real HTTP with only the offline rules editor (as `make run` starts
 * the service): the acceptance sentence, changes that slice the original, markup and code left
 * alone, 503 for edits that need a model, and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../helpers/service.js'

let service: RunningService

beforeAll(async () => {
  service = await startService({ MAX_EDITS: '3' })
}, 90_000)

afterAll(async () => { await service?.stop() })

const edit = async (body: Record<string, unknown>) => await service.post('/language/edit', body)

function expectSlices (original: string, changes: Array<{ offset: number, length: number, original: string }>): void {
  const points = Array.from(original)
  for (const change of changes) expect(points.slice(change.offset, change.offset + change.length).join('')).toBe(change.original)
}

/** `changes` made in the original (offsets and lengths in code points), as docs/api.md says a client applies them. */
function applied (original: string, changes: Array<{ offset: number, length: number, replacement: string }>): string {
  const points = Array.from(original)
  let out = ''
  let at = 0
  for (const c of changes) {
    out += points.slice(at, c.offset).join('') + c.replacement
    at = c.offset + c.length
  }
  return out + points.slice(at).join('')
}

describe('offline editing over HTTP', () => {
  it('fixes grammar and spelling and simplifies, with changes that slice the original', async () => {
    const original = 'Their going to the libary tomorow in order to utilize there books.'
    const res = await edit({ document: { value: original }, edits: [{ type: 'grammar' }, { type: 'simplify' }], meta: { doc: '1' } })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.document.value).toBe("They're going to the library tomorrow to use their books.")
    expect(res.json.original).toEqual({ value: original })
    expect(res.json.meta).toMatchObject({ editor: 'rules', language: 'en', doc: '1' })
    const changes: Array<{ offset: number, length: number, original: string, replacement: string, type: string, reason?: string }> = res.json.changes
    expectSlices(original, changes)
    const typeOf = (word: string): string | undefined => changes.find(c => c.original.includes(word))?.type
    expect(typeOf('libary')).toBe('grammar')
    expect(typeOf('utilize')).toBe('simplify')
    for (const change of changes) expect(change.reason).toBeTruthy()
    // applying the changes to the original gives the edited text
    const points = Array.from(original)
    let rebuilt = ''
    let at = 0
    for (const c of changes) {
      rebuilt += points.slice(at, c.offset).join('') + c.replacement
      at = c.offset + c.length
    }
    expect(rebuilt + points.slice(at).join('')).toBe(res.json.document.value)
  })

  it('gives every change its own reason when a sentence has several fixes', async () => {
    const original = 'i think  this is is good.'
    const res = await edit({ document: { value: original, language: 'en' }, edits: [{ type: 'syntax' }] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.document.value).toBe('I think this is good.')
    expectSlices(original, res.json.changes)
    const reasons = res.json.changes.map((c: { original: string, reason?: string }) => [c.original, c.reason])
    expect(reasons).toEqual([
      ['i', 'A sentence starts with a capital letter'],
      ['  ', 'Extra space between words'],
      [expect.stringMatching(/^ ?is ?$/), 'Repeated word "is"']
    ])
  })

  it('gives every change the type and reason of the rules that made it: a word two rules changed, an attribute edited after the text, notes the word diff cuts differently', async () => {
    const cases: Array<{ value: string, mime_type?: string, edits: string[] }> = [
      { value: 'dont worry, i wont tell. thats fine, isnt it? lets go.', edits: ['grammar', 'syntax'] },
      { value: '<p><a title="their libary">libary</a> tomorow</p>', mime_type: 'text/html', edits: ['grammar'] },
      { value: 'In order to utilize the system, you must login.', edits: ['grammar', 'simplify'] },
      // a spacing fix beside another fix, which the word diff of the sentence aligned otherwise (a probe saw "  phone" deleted and "phone" put back, no reason)
      { value: "It's a great  phone , but the battery dies fast.", edits: ['syntax'] },
      { value: "It's a great  phone , but the battery dies fast.", edits: ['grammar', 'syntax', 'simplify'] },
      { value: ':D  THATS MY BOY', edits: ['grammar', 'syntax'] },
      // a run of spaces HTML shows as one, which no rule saw
      { value: '<p>Click <a href="x">this  link</a> now .</p>', mime_type: 'text/html', edits: ['grammar', 'syntax'] },
      // a double space, a space before a comma and a missing apostrophe in one sentence (a probe saw "  home" deleted and "home" put back, "we" made "didn't", no reason)
      { value: 'We went  home ,didnt we ?', edits: ['grammar', 'syntax', 'simplify'] },
      { value: '<p>We went  home ,didnt we ?</p>', mime_type: 'text/html', edits: ['grammar', 'syntax', 'simplify'] },
      { value: 'THATS  a good  idea ,isnt it ?', edits: ['grammar', 'syntax', 'simplify'] },
      { value: '<p>great  phone ,  <b>i</b> love it</p>', mime_type: 'text/html', edits: ['grammar', 'syntax', 'simplify'] },
      // a repeated word at a sentence's start (a probe saw "the " deleted as a capital)
      { value: 'the the cat sat.', edits: ['grammar', 'syntax', 'simplify'] }
    ]
    for (const { value, mime_type: mime, edits } of cases) {
      const res = await edit({ document: { value, language: 'en', ...(mime === undefined ? {} : { mime_type: mime }) }, edits: edits.map(type => ({ type })) })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      const changes: Array<{ offset: number, length: number, original: string, replacement: string, type: string, reason?: string }> = res.json.changes
      expect(changes.length, value).toBeGreaterThan(0)
      expectSlices(value, changes)
      const points = Array.from(value)
      let rebuilt = ''
      let at = 0
      for (const c of changes) {
        rebuilt += points.slice(at, c.offset).join('') + c.replacement
        at = c.offset + c.length
      }
      expect(rebuilt + points.slice(at).join('')).toBe(res.json.document.value)
      for (const change of changes) {
        expect(edits, JSON.stringify(change)).toContain(change.type)
        expect(change.reason, JSON.stringify(change)).toBeTruthy()
      }
    }
    // each rule's change where the word diff of the sentence aligned them across words
    const sentence = await edit({ document: { value: '<p>We went  home ,didnt we ?</p>', mime_type: 'text/html', language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }, { type: 'simplify' }] })
    expect(sentence.json.document.value).toBe("<p>We went  home, didn't we?</p>")
    expect(sentence.json.changes.map((c: { offset: number, original: string, replacement: string, reason?: string }) => [c.offset, c.original, c.replacement, c.reason])).toEqual([
      [16, ' ,', ', ', 'Space before ","'],
      [18, 'didnt', "didn't", 'Missing apostrophe: "didn\'t"'],
      [26, ' ', '', 'Space before "?"']
    ])
    const repeated = await edit({ document: { value: 'the the cat sat.', language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }, { type: 'simplify' }] })
    expect(repeated.json.changes.find((c: { replacement: string }) => c.replacement === '')).toMatchObject({ offset: 3, length: 4, original: ' the', type: 'grammar', reason: 'Repeated word "the"' })
    // a contraction fixed and capitalised: the first rule's type, both rules' reasons
    const res = await edit({ document: { value: cases[0]!.value, language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }] })
    const dont = res.json.changes.find((c: { original: string }) => c.original === 'dont')
    expect(dont).toMatchObject({ replacement: "Don't", type: 'grammar' })
    expect(dont.reason).toMatch(/apostrophe.*; A sentence starts with a capital letter/)
  })

  it('leaves a word said three times or more alone and fixes a pair (a probe saw "love love love" made "love love")', async () => {
    for (const value of ['I love love love having good ppl', 'Wow wow wow wow wow.', 'Yay yay yay yay yay yay #mets']) {
      const res = await edit({ document: { value, language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }] })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      expect(res.json.document.value).toBe(value)
      expect(res.json.changes).toEqual([])
    }
    const res = await edit({ document: { value: 'I saw the the cat.', language: 'en' }, edits: [{ type: 'syntax' }] })
    expect(res.json.document.value).toBe('I saw the cat.')
    expect(res.json.changes.map((c: { type: string, reason?: string }) => [c.type, c.reason])).toEqual([['syntax', 'Repeated word "the"']])
  })

  it('leaves British English alone in en-GB text (its own dictionary, possessives on their stem)', async () => {
    const res = await edit({ document: { value: "the centre's theatre", language: 'en-GB' }, edits: [{ type: 'grammar' }] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.document.value).toBe("the centre's theatre")
    expect(res.json.changes).toEqual([])
  })

  it('keeps the syntax rules docs/engines.md lists: spaces before punctuation and after a full stop, contractions, French accents', async () => {
    const original = 'What a day , isnt it ? It was good.Then we went to example.it today.'
    const res = await edit({ document: { value: original, language: 'en' }, edits: [{ type: 'syntax' }, { type: 'grammar' }] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.document.value).toBe("What a day, isn't it? It was good. Then we went to example.it today.")
    expectSlices(original, res.json.changes)
    for (const change of res.json.changes) expect(change.reason).toBeTruthy()
    const fr = await edit({ document: { value: "C'est tres bien.", language: 'fr' }, edits: [{ type: 'grammar' }] })
    expect(fr.json.document.value).toBe("C'est très bien.")
    // a comma glued to the next word: the space goes after it (a probe saw "apples ,pears" left)
    const comma = await edit({ document: { value: 'I like apples ,pears and plums, right ?', language: 'en' }, edits: [{ type: 'syntax' }] })
    expect(comma.json.document.value).toBe('I like apples, pears and plums, right?')
  })

  it('edits a short text without a language as English when detection is unsure and it spells as English; no text is a 400', async () => {
    const res = await edit({ document: { value: 'teh cat' }, edits: [{ type: 'grammar' }] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    expect(res.json.document).toEqual({ value: 'the cat', language: 'en' })
    expect(res.json.meta.language).toBe('en')
    // nothing a detector reads ("...", numbers, a URL) is no text too, as with a language given (was a 503 for "und")
    for (const value of ['', '   ', '<p></p>', '...', '12345 678', 'https://example.com/a']) {
      const empty = await edit({ document: { value, ...(value.startsWith('<') ? { mime_type: 'text/html' } : {}) }, edits: [{ type: 'grammar' }] })
      expect(empty.status, `${value}: ${JSON.stringify(empty.json)}`).toBe(400)
      expect(empty.json.errors[0].pointer).toBe('/document/value')
    }
    const given = await edit({ document: { value: '', language: 'en' }, edits: [{ type: 'syntax' }] })
    expect(given.status).toBe(400)
    expect(given.json.errors[0].pointer).toBe('/document/value')
  })

  it('never edits markup, code, URLs or placeholders', async () => {
    const html = '<p title="teh libary">Teh <a href="https://example.com/libary">libary</a> is open, {name}. <code>teh_libary()</code></p>'
    const res = await edit({ document: { value: html, mime_type: 'text/html', language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(res.status).toBe(200)
    expect(res.json.document.value).toBe('<p title="the library">The <a href="https://example.com/libary">library</a> is open, {name}. <code>teh_libary()</code></p>')
    expectSlices(html, res.json.changes)
    const plain = await edit({ document: { value: 'See https://example.com/teh-libary or mail teh@libary.org about {teh}.', language: 'en' }, edits: [{ type: 'grammar' }] })
    expect(plain.json.document.value).toBe('See https://example.com/teh-libary or mail teh@libary.org about {teh}.')
    expect(plain.json.changes).toEqual([])
  })

  it('corrects a word without reflowing its paragraph: line breaks, indentation and a quote\'s ">" stay (a probe saw them joined)', async () => {
    const cases: Array<[string, string]> = [
      ['> Thanks to\n> our great team, who wrote teh code.\n', 'text/markdown'],
      ['- An item that runs\n  over two lines with teh typo.\n', 'text/markdown'],
      ['<p>Thanks to\nour great team,\n  who wrote teh code.</p>', 'text/html']
    ]
    for (const [value, mime] of cases) {
      const res = await edit({ document: { value, mime_type: mime, language: 'en' }, edits: [{ type: 'grammar' }] })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      expect(res.json.document.value, value).toBe(value.replace('teh', 'the'))
      expect(res.json.changes).toEqual([{ offset: value.indexOf('teh'), length: 3, original: 'teh', replacement: 'the', type: 'grammar', reason: 'Misspelling of "the"' }])
    }
    // the corrected word the last of its line (a probe's "teh\n> " came back "the ")
    const ends: Array<[string, string, string]> = [
      ['> i think teh\n> quote continues here .\n', 'text/markdown', '> I think the\n> quote continues here.\n'],
      ['Line one teh\n  indented teh line\n\ttabbed teh\n', 'text/markdown', 'Line one the\n  indented the line\n\ttabbed the\n'],
      ['<p>This is a paragraph with teh\n   soft wrap in it.</p>', 'text/html', '<p>This is a paragraph with the\n   soft wrap in it.</p>']
    ]
    for (const [value, mime, expected] of ends) {
      const res = await edit({ document: { value, mime_type: mime, language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }] })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      expect(res.json.document.value, value).toBe(expected)
      expectSlices(value, res.json.changes)
      for (const change of res.json.changes) expect(change.original, JSON.stringify(change)).not.toContain('\n')
    }
  })

  it('maps a corrected Markdown sentence back onto its source: line breaks, a line after `<br>`, quote markers and a gained sentence stay where they were (a probe saw "Thanks" moved into a new paragraph, a `>` replaced, a space added at a line\'s start)', async () => {
    const cases: Array<{ value: string, edits: string[], expected: string }> = [
      { value: 'Visit us today.Thanks\n\nWe learn.<br>\nteh end.', edits: ['grammar', 'syntax'], expected: 'Visit us today. Thanks\n\nWe learn.<br>\nThe end.' },
      { value: '> I love jewel.\n> she is here.', edits: ['syntax'], expected: '> I love jewel.\n> She is here.' },
      { value: '> I love jewel.\n> their going home.', edits: ['grammar', 'syntax'], expected: "> I love jewel.\n> They're going home." },
      { value: 'We learn.\nteh end.', edits: ['grammar', 'syntax'], expected: 'We learn.\nThe end.' },
      { value: 'We learn.<br>\nteh end.', edits: ['grammar', 'syntax'], expected: 'We learn.<br>\nThe end.' }
    ]
    for (const { value, edits, expected } of cases) {
      for (const language of [{ language: 'en' }, {}]) {
        const res = await edit({ document: { value, mime_type: 'text/markdown', ...language }, edits: edits.map(type => ({ type })) })
        expect(res.status, JSON.stringify(res.json)).toBe(200)
        expect(res.json.document.value, value).toBe(expected)
        expect(applied(value, res.json.changes), value).toBe(expected)
        for (const change of res.json.changes) expect(change.reason, JSON.stringify(change)).toBeTruthy()
      }
    }
  })

  it('changes only the fixed words of a README with lists, quotes, a table and a footnote', async () => {
    const value = [
      '# Teh project',
      '',
      'This tool helps you recieve updates from your team.Then it sends them on',
      'to the people who need them[^1], with *emphasis* and a [link](https://example.com/teh).',
      '',
      '- Install it with `npm install teh-tool`.',
      '- Run it every morning and read teh',
      '  summary it writes.',
      '',
      '> Note: their going to change',
      '> the format in version 2.<br>',
      '> it will be simpler.',
      '',
      '| Option | Meaning |',
      '| ------ | ------- |',
      '| `-v` | shows teh version |',
      '',
      '[^1]: Everyone on teh list.',
      '',
      'Thanks for reading.',
      ''
    ].join('\n')
    const res = await edit({ document: { value, mime_type: 'text/markdown', language: 'en' }, edits: [{ type: 'grammar' }, { type: 'syntax' }] })
    expect(res.status, JSON.stringify(res.json)).toBe(200)
    const edited: string = res.json.document.value
    expect(applied(value, res.json.changes)).toBe(edited)
    // every line is where it was, with its markup; only words changed
    const before = value.split('\n')
    const after = edited.split('\n')
    expect(after.length).toBe(before.length)
    const markup = (line: string): string => /^(?:[#>|-]+ ?|\[\^1\]: |\s+)?/.exec(line)![0]
    after.forEach((line, i) => expect(markup(line), line).toBe(markup(before[i]!)))
    expect(edited.replaceAll('teh-tool', '').replaceAll('/teh)', '')).not.toMatch(/\bteh\b/i)
    expect(edited).toContain('`npm install teh-tool`')
    expect(edited).toContain('(https://example.com/teh)')
    expect(edited).toContain('team. Then it sends them on\nto the people')
    for (const change of res.json.changes) {
      expect(change.original, JSON.stringify(change)).not.toMatch(/\n/)
      expect(change.reason, JSON.stringify(change)).toBeTruthy()
    }
  })

  it('leaves names alone: a product written with a dot, a name at a sentence\'s start (a probe saw "Salman" made "Salmon", ".NET" glued)', async () => {
    for (const value of ['The .NET runtime is fast, and apps with .NET too.', 'Salman Mitha wrote it. Frazer Smith fixed it.', 'We use the .env file and .gitignore here.']) {
      const res = await edit({ document: { value, language: 'en' }, edits: [{ type: 'syntax' }, { type: 'grammar' }] })
      expect(res.status, JSON.stringify(res.json)).toBe(200)
      expect(res.json.document.value).toBe(value)
      expect(res.json.changes).toEqual([])
    }
    // a lowercase misspelling and a swap at a sentence's start are still fixed
    const fixed = await edit({ document: { value: 'Teh libary is open. Recieve it .', language: 'en' }, edits: [{ type: 'syntax' }, { type: 'grammar' }] })
    expect(fixed.json.document.value).toBe('The library is open. Receive it.')
  })

  it('answers 503 naming OPENAI_BASE_URL / OPENAI_MODEL for edits that need a model', async () => {
    for (const edits of [[{ type: 'tone', tone: 'friendly' }], [{ type: 'length', length: 'shorten' }], [{ type: 'clarify' }], [{ type: 'grammar' }, { type: 'tone', tone: 'sad' }]]) {
      const res = await edit({ document: { value: 'Their going home.', language: 'en' }, edits })
      expect(res.status).toBe(503)
      expect(res.json.detail).toMatch(/OPENAI_BASE_URL/)
      expect(res.json.detail).toMatch(/OPENAI_MODEL/)
    }
    const japanese = await edit({ document: { value: 'これはペンです。', language: 'ja' }, edits: [{ type: 'grammar' }] })
    expect(japanese.status).toBe(503)
  })

  it('fixes spelling in French and German (capitalised German nouns are left alone)', async () => {
    const fr = await edit({ document: { value: 'Nous avons visité le musée avec nos enfnats.', language: 'fr' }, edits: [{ type: 'grammar' }] })
    expect(fr.status).toBe(200)
    expect(fr.json.document.value).toBe('Nous avons visité le musée avec nos enfants.')
    expect(fr.json.changes).toEqual([expect.objectContaining({ original: 'enfnats', replacement: 'enfants', type: 'grammar', reason: expect.stringMatching(/enfants/) })])
    const de = await edit({ document: { value: 'Wir waren gestern sehr glücklih.', language: 'de' }, edits: [{ type: 'grammar' }] })
    expect(de.json.document.value).toBe('Wir waren gestern sehr glücklich.')
  })

  it('spells German ss by region: right in de-CH, ß in de, never a word one letter away (a probe got "strasse" -> "stresse")', async () => {
    const value = 'Ich gehe heute die strasse entlang, sie ist sehr gross.'
    const swiss = await edit({ document: { value, language: 'de-CH' }, edits: [{ type: 'grammar' }] })
    expect(swiss.status, JSON.stringify(swiss.json)).toBe(200)
    expect(swiss.json.document.value).toBe(value)
    expect(swiss.json.changes).toEqual([])
    const german = await edit({ document: { value, language: 'de' }, edits: [{ type: 'grammar' }] })
    expect(german.json.document.value).toBe('Ich gehe heute die strasse entlang, sie ist sehr groß.')
    expect(german.json.changes).toEqual([expect.objectContaining({ original: 'gross', replacement: 'groß', type: 'grammar' })])
  })

  it('answers bad input with 400 naming the pointer', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ edits: [{ type: 'polish' }] }, '/edits/0'],
      [{ edits: [{ type: 'grammar' }, { type: 'tone' }] }, '/edits/1'],
      [{ edits: [{ type: 'tone', tone: 'grumpy' }] }, '/edits/0'],
      [{ edits: [{ type: 'length', length: 'huge' }] }, '/edits/0'],
      [{ edits: [{ type: 'grammar' }, { type: 'syntax' }, { type: 'simplify' }, { type: 'grammar' }] }, '/edits'],
      [{ edits: [] }, '/edits'],
      [{ edits: [{ type: 'grammar' }], tone_level: 11 }, '/tone_level'],
      [{ edits: [{ type: 'grammar' }], tone_level: 0 }, '/tone_level'],
      [{ edits: [{ type: 'grammar' }], temperature: 1.5 }, '/temperature'],
      [{ edits: [{ type: 'grammar' }], temperature: -0.1 }, '/temperature']
    ]
    for (const [body, pointer] of cases) {
      const res = await edit({ document: { value: 'Some text.' }, ...body })
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.json.errors[0].pointer, JSON.stringify(body)).toMatch(new RegExp(`^${pointer}`))
    }
  })
})
