/** What of an engine's words may be logged: every form of a configured secret and every client text replaced, cut short. */
import { describe, expect, it } from 'vitest'
import { createRedactor, MAX_LOGGED, REDACTED, TEXT } from '../../../src/upstream/redact.js'

const KEY = 'sk-proj-Zq8xT3vW9yK2mN5pR7sL1cF4hJ6'
const GOOGLE_KEY = 'AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY'
const redactor = createRedactor([KEY, undefined, ''])

/** Every way a secret was seen echoed: as it is, encoded, and spaced out. */
function forms (secret: string): string[] {
  const b64 = (text: string): string => Buffer.from(text).toString('base64')
  return [
    secret,
    b64(secret),
    Buffer.from(secret).toString('base64url'),
    b64(`Bearer ${secret}`),
    b64(`user:${secret}`),
    b64(`x${secret}y`),
    Buffer.from(secret).toString('hex'),
    encodeURIComponent(secret + '/+'),
    Array.from(secret).join(' '),
    Array.from(secret).join('  '),
    Array.from(secret).join('.'),
    JSON.stringify({ key: secret })
  ]
}

describe('createRedactor', () => {
  it('replaces a secret in every form it is echoed in', () => {
    for (const form of forms(KEY)) {
      const out = redactor.redact(`API key not valid: ${form}. Please pass a valid key.`)
      expect(out, form).toContain(REDACTED)
      // nothing of the key is left that says more than a few bits
      expect(out, form).not.toContain(KEY.slice(3, 12))
      expect(out, form).not.toContain(Buffer.from(KEY).toString('base64').slice(4, 20))
      expect(out.replace(/\s/g, ''), form).not.toContain(KEY.slice(8, 16))
      const middle = Math.floor(form.length / 2)
      expect(out, form).not.toContain(form.slice(middle - 4, middle + 4))
      expect(out, form).toMatch(/^API key not valid: .*Please pass a valid key\.$/)
    }
  })

  it('replaces credentials of well-known shapes, configured or not, and leaves other words alone', () => {
    const other = createRedactor([])
    expect(other.redact(`key ${GOOGLE_KEY} refused`)).toBe(`key ${REDACTED} refused`)
    expect(other.redact('Incorrect API key provided: sk-abcd1234efgh, check it')).toBe(`Incorrect API key provided: ${REDACTED}, check it`)
    expect(other.redact('Authorization: Bearer abc.def.ghi was refused')).toBe(`Authorization: Bearer ${REDACTED} was refused`)
    expect(other.redact('Internal error encountered.')).toBe('Internal error encountered.')
  })

  it('replaces the client texts of the call: whole, in part, escaped, and short ones only as words', () => {
    const texts = [
      'My bank password is hunter2 and my card number is 4111 1111',
      'Héllo <g id="1">wörld of secrets</g>',
      'No',
      'Quote "me" & you'
    ]
    const said = [
      'Cannot process "My bank password is hunter2 and my card number is 4111 1111"',
      'cut: My bank password is hunt...',
      'escaped: H\\u00e9llo and w\\u00f6rld of secrets',
      'html: Quote &quot;me&quot; &amp; you',
      'json: "Quote \\"me\\" & you"',
      'Not a word: No.'
    ].join('\n')
    const out = redactor.redact(said, texts)
    for (const secret of ['hunter2', 'bank password', 'wörld', 'w\\u00f6rld', 'H\\u00e9llo', 'Quote', 'me&quot;']) expect(out).not.toContain(secret)
    expect(out).toContain(`Cannot process "${TEXT}"`)
    expect(out).toContain(`cut: ${TEXT}...`)
    // "No" stands as a word once; "Not" is another word
    expect(out).toContain(`Not a word: ${TEXT}.`)
  })

  it('replaces two texts that start alike, quoted whole and cut short', () => {
    const texts = ['Private note of client two: diagnosis pending.', 'Private note of client one: salary 91,000.']
    const out = redactor.redact('Cannot process "Private note of client one: salary 91,000.", "Private note of client two: diagnosis pending.", "Private note of client one: sal', texts)
    expect(out).toBe(`Cannot process "${TEXT}", "${TEXT}", "${TEXT}`)
  })

  it('makes bodies readable for the log: JSON unescaped, HTML as its text, cut to MAX_LOGGED', () => {
    const json = JSON.stringify({ error: { message: `API key not valid: ${KEY}`, text: 'Gr\u00fc\u00dfe' } })
    expect(redactor.engineMessage(json.replace('\u00fc', '\\u00fc'), ['Grüße'])).toBe(`{"error":{"message":"API key not valid: ${REDACTED}","text":"${TEXT}"}}`)
    const page = `<!doctype html><html><head><style>p { color: red }</style><script>var k = 1</script></head><body><h1>Error 403</h1>
      <p>Key <code>${KEY.replace('-', '&#45;')}</code> &amp; text <q>Fish &amp; chips</q></p></body></html>`
    expect(redactor.engineMessage(page, ['Fish & chips'])).toBe(`Error 403 Key ${REDACTED} & text ${TEXT}`)
    expect(redactor.engineMessage('   ')).toBeUndefined()
    const long = redactor.engineMessage('x'.repeat(10_000))!
    expect(long.length).toBeLessThanOrEqual(MAX_LOGGED + 3)
    expect(long.endsWith('...')).toBe(true)
  })

  it('leaves no piece of a secret where a long body is cut', () => {
    for (let at = 4000; at < 4100; at += 7) {
      const body = 'a'.repeat(at) + KEY + ' ' + 'b'.repeat(10_000)
      const out = redactor.engineMessage(body)!
      expect(out).not.toContain(KEY.slice(0, 6))
    }
    // and where the shown part ends after text shrank by redaction
    const shrunk = redactor.engineMessage(`${'word '.repeat(20)}${'z'.repeat(3000)}${' '.repeat(1070)}${KEY}`, ['z'.repeat(3000)])!
    expect(shrunk).not.toContain(KEY.slice(0, 6))
  })

  it('takes little time on a large failing batch', () => {
    const texts = Array.from({ length: 128 }, (_, i) => `Segment number ${i} with <g id="${i}">some markup</g> and words`)
    const body = JSON.stringify({ error: { message: texts.join(' | ') + ' ' + 'y'.repeat(50_000) } })
    const started = performance.now()
    const out = redactor.engineMessage(body, texts)!
    expect(performance.now() - started).toBeLessThan(2000)
    expect(out).not.toContain('Segment number')
  })
})
