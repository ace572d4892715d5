import { beforeAll, describe, expect, it } from 'vitest'
import availableLocales from 'cldr-core/availableLocales.json' with { type: 'json' }
import defaultContent from 'cldr-core/defaultContent.json' with { type: 'json' }
import { getLocale, listLocales, type LocaleInfo } from '../../../src/core/locales.js'
import { TONES } from '../../../src/core/tones.js'
import { NotFoundError, ValidationError } from '../../../src/errors.js'

/** The error `fn` throws (fails the test when it throws none). */
function thrown (fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}

describe('getLocale', () => {
  it('answers pt-BR with its English names, likely script and CLDR parent', () => {
    expect(getLocale('pt-BR')).toEqual({
      tag: 'pt-BR',
      name: 'Portuguese (Brazil)',
      region: { tag: 'BR', name: 'Brazil' },
      script: { tag: 'Latn', name: 'Latin' },
      base: 'pt',
      parent: 'pt'
    })
  })

  it.each([
    ['en-GB', 'en-001'],
    ['en-AT', 'en-150'],
    ['en-150', 'en-001'],
    ['en-001', 'en'],
    ['es-MX', 'es-419'],
    ['es-419', 'es'],
    ['pt', 'root'],
    ['pt-AO', 'pt-PT'],
    ['en-US', 'en'],
    ['nn', 'no'],
    ['hi-Latn', 'en-IN'],
    ['zh-Hant-MO', 'zh-Hant-HK'],
    ['zh-Hant-HK', 'zh-Hant'],
    ['zh-Hant', 'root'],
    ['zh-Hans', 'zh'],
    ['sr-Latn', 'root'],
    ['sr-Cyrl', 'sr'],
    ['sr-Latn-BA', 'sr-Latn'],
    // not listed in parentLocales: root through the nonlikelyScript rule, not truncation to zh
    ['zh-Latn', 'root'],
    ['ca-ES-valencia', 'ca-ES']
  ])('gives %s the CLDR parent %s', (tag, parent) => {
    expect(getLocale(tag).parent).toBe(parent)
  })

  it('takes region and script from the likely subtags', () => {
    expect(getLocale('en')).toMatchObject({ region: { tag: 'US', name: 'United States' }, script: { tag: 'Latn' }, base: 'en' })
    expect(getLocale('sr-Latn')).toMatchObject({ region: { tag: 'RS' }, script: { tag: 'Latn', name: 'Latin' } })
    expect(getLocale('sr')).toMatchObject({ script: { tag: 'Cyrl', name: 'Cyrillic' } })
    expect(getLocale('es-419')).toMatchObject({ region: { tag: '419', name: 'Latin America' } })
  })

  it('answers zh-TW as the Traditional Chinese locale CLDR keeps as zh-Hant-TW', () => {
    expect(getLocale('zh-TW')).toEqual({
      tag: 'zh-TW',
      name: 'Chinese (Taiwan)',
      region: { tag: 'TW', name: 'Taiwan' },
      script: { tag: 'Hant', name: 'Traditional' },
      base: 'zh',
      parent: 'zh-Hant'
    })
    expect(getLocale('zh-CN')).toMatchObject({ script: { tag: 'Hans' }, parent: 'zh-Hans' })
    expect(getLocale('sr-ME')).toMatchObject({ script: { tag: 'Latn' }, parent: 'sr-Latn' })
  })

  it('answers a tag that spells out the likely script as the locale without it', () => {
    expect(getLocale('en-Latn-US')).toMatchObject({ tag: 'en-Latn-US', parent: 'en', region: { tag: 'US' } })
  })

  it('matches tags case-insensitively and answers them canonical', () => {
    expect(getLocale('EN-gb').tag).toBe('en-GB')
    expect(getLocale('zh-hant-tw').tag).toBe('zh-Hant-TW')
    expect(getLocale('IW').tag).toBe('he')
  })

  it('gives names in the display language', () => {
    expect(getLocale('pt-BR', { display: 'fr' })).toEqual({
      tag: 'pt-BR',
      name: 'portugais (Brésil)',
      region: { tag: 'BR', name: 'Brésil' },
      script: { tag: 'Latn', name: 'latin' },
      base: 'pt',
      parent: 'pt'
    })
    expect(getLocale('de-CH', { display: 'DE' }).name).toBe('Deutsch (Schweiz)')
    // a language the display language has no name for: its English name, the rest still in the display language (was all English)
    const english = (type: 'language' | 'script', code: string): string => new Intl.DisplayNames('en', { type }).of(code)!
    const french = new Intl.DisplayNames('fr', { type: 'region' }).of('US')!
    expect(getLocale('cic-US', { display: 'fr' }).name).toBe(`${english('language', 'cic')} (${french})`)
    expect(getLocale('hnj-Hmnp-US', { display: 'de' }).name).toBe(`${english('language', 'hnj')} (${english('script', 'Hmnp')}, ${new Intl.DisplayNames('de', { type: 'region' }).of('US')!})`)
  })

  it('refuses a display language Intl has no names in with a 400 at /display, rather than answering English as if asked', () => {
    for (const display of ['xx', 'qaa', 'frp']) {
      const error = thrown(() => getLocale('pt-BR', { display }))
      expect(error, display).toBeInstanceOf(ValidationError)
      expect((error as ValidationError).errors?.[0]?.path).toEqual(['display'])
      expect((error as ValidationError).message).toContain(`"${display}"`)
    }
    // a region of a language with names is that language's names
    expect(getLocale('pt-BR', { display: 'fr-XX' }).name).toBe(getLocale('pt-BR', { display: 'fr' }).name)
  })

  it('ignores extensions and private use: en-GB-u-ca-buddhist is en-GB', () => {
    expect(getLocale('en-GB-u-ca-buddhist')).toEqual(getLocale('en-GB'))
    expect(getLocale('en-US-u-ca-buddhist').tag).toBe('en-US')
    expect(getLocale('en-x-private')).toEqual(getLocale('en'))
  })

  it('answers CLDR\'s en_US_POSIX as Intl writes it, its parent en-US (a probe got "en-US-u-va", which is no locale)', () => {
    const posix = getLocale('en-US-POSIX')
    expect(posix.tag).toBe(new Intl.Locale('en-US-POSIX').baseName)
    expect(posix.parent).toBe('en-US')
    expect(getLocale(posix.parent).tag).toBe('en-US')
  })

  it('writes variants CLDR has no name for as names, not codes: "Occitan (Aranes)"', () => {
    expect(getLocale('oc-aranes').name).toBe('Occitan (Aranes)')
    expect(getLocale('oc-gascon').name).toBe('Occitan (Gascon)')
    expect(getLocale('oc-aranes', { display: 'fr' }).name).toMatch(/\(Aranes\)$/)
  })

  it.each(['en_US', '123', '-', 'a'.repeat(65), '', 'en--GB', 'i-klingon'])('refuses the malformed tag %j with a 400 at /tag', tag => {
    const error = thrown(() => getLocale(tag))
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).status).toBe(400)
    expect((error as ValidationError).errors).toEqual([{ path: ['tag'], message: expect.stringContaining('well-formed') }])
  })

  it('names the path the caller gives', () => {
    const error = thrown(() => getLocale('en_US', { path: ['params', 'tag'] })) as ValidationError
    expect(error.errors?.[0]?.path).toEqual(['params', 'tag'])
  })

  it('refuses a malformed display language with a 400 at /display', () => {
    const error = thrown(() => getLocale('pt-BR', { display: 'fr_FR' }))
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).errors?.[0]?.path).toEqual(['display'])
  })

  it.each(['xx', 'qaa', 'xx-YY', 'en-XY', 'de-US', 'und', 'aaa', 'nil', 'abc'])(
    'answers the well-formed tag %s that CLDR has no locale for with a 404', tag => {
      const error = thrown(() => getLocale(tag))
      expect(error).toBeInstanceOf(NotFoundError)
      expect((error as NotFoundError).status).toBe(404)
    })
})

describe('listLocales', () => {
  let list: readonly LocaleInfo[]
  let tags: string[]
  beforeAll(async () => {
    list = await listLocales()
    tags = list.map(l => l.tag)
  })

  it('lists every CLDR locale, default-content ones included, and not the root', () => {
    const expected = new Set([...availableLocales.availableLocales.full, ...defaultContent.defaultContent])
    expected.delete('und')
    expect(new Set(tags)).toEqual(expected)
    expect(tags).toHaveLength(expected.size)
    expect(tags).toEqual(expect.arrayContaining(['en', 'en-US', 'en-GB', 'pt-BR', 'zh-Hant-TW', 'sr-Latn']))
  })

  it('is sorted by tag, code unit by code unit', () => {
    const sorted = [...tags].sort((a, b) => a < b ? -1 : a > b ? 1 : 0)
    expect(tags).toEqual(sorted)
    expect(tags.indexOf('en')).toBeLessThan(tags.indexOf('en-001'))
  })

  it('holds canonical tags only', () => {
    expect(tags.filter(t => Intl.getCanonicalLocales(t)[0] !== t)).toEqual([])
  })

  it('points every parent at root or at a listed locale, and every chain ends at root', () => {
    const byTag = new Map(list.map(l => [l.tag, l]))
    const dangling = list.filter(l => l.parent !== 'root' && !byTag.has(l.parent)).map(l => `${l.tag} -> ${l.parent}`)
    expect(dangling).toEqual([])
    for (const locale of list) {
      let tag = locale.tag
      for (let step = 0; tag !== 'root'; step++) {
        expect(step, `chain from ${locale.tag}`).toBeLessThan(6)
        tag = byTag.get(tag)?.parent ?? 'missing'
      }
    }
  })

  it('keeps a parent in the same script, or root (UTS #35 parent locale invariant)', () => {
    const byTag = new Map(list.map(l => [l.tag, l]))
    const mixed = list.filter(l => l.parent !== 'root' && byTag.get(l.parent)?.script.tag !== l.script.tag)
    expect(mixed.map(l => l.tag)).toEqual([])
  })

  it('agrees with getLocale for every entry', () => {
    for (const locale of list) expect(getLocale(locale.tag)).toEqual(locale)
  })

  it('names every region and script in English', () => {
    const regions = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' })
    const scripts = new Intl.DisplayNames(['en'], { type: 'script', fallback: 'none' })
    const unnamed = list.filter(l => l.region.tag === 'ZZ' || l.script.tag === 'Zzzz' ||
      l.region.name !== regions.of(l.region.tag) || l.script.name !== scripts.of(l.script.tag))
    expect(unnamed.map(l => l.tag)).toEqual([])
  })

  it('spells a language by its code only where CLDR has no English name for it', () => {
    const languages = new Intl.DisplayNames(['en'], { type: 'language', languageDisplay: 'standard', fallback: 'none' })
    const coded = list.filter(l => l.name !== languages.of(l.tag))
    // apc, skr... are CLDR locales whose language English CLDR does not name
    expect(coded.length).toBeGreaterThan(0)
    for (const locale of coded) {
      expect(languages.of(locale.base)).toBeUndefined()
      expect(locale.name.startsWith(locale.base)).toBe(true)
    }
    expect(list.find(l => l.tag === 'lld-IT')?.name).toBe('lld (Italy)')
  })

  it('answers the same array again for the same display language', async () => {
    expect(await listLocales()).toBe(list)
    expect(await listLocales({ display: 'en' })).toBe(list)
  })

  it('builds a new display language\'s list a chunk per turn of the event loop, once for concurrent callers', async () => {
    let turns = 0
    let done = false
    const tick = (): void => {
      turns++
      if (!done) setImmediate(tick)
    }
    setImmediate(tick)
    const [a, b] = await Promise.all([listLocales({ display: 'fi' }), listLocales({ display: 'fi' })])
    done = true
    expect(a).toBe(b)
    expect(a).toHaveLength(list.length)
    // ~1,000 locales, 50 per turn: other work ran between the chunks
    expect(turns).toBeGreaterThanOrEqual(Math.floor(list.length / 50) - 1)
  })

  it('keeps lists for a bounded number of display languages, rebuilding the same answer', async () => {
    const others = ['fr', 'de', 'es', 'it', 'pt', 'nl', 'sv', 'pl', 'ru', 'ja', 'zh', 'ko', 'ar', 'hi', 'tr', 'uk', 'cs']
    for (const display of others) await listLocales({ display })
    const again = await listLocales()
    expect(again).not.toBe(list)
    expect(again).toEqual(list)
  })

  it('names in the display language, in English where it has no name', async () => {
    const french = await listLocales({ display: 'fr' })
    expect(french.map(l => l.tag)).toEqual(tags)
    expect(french.find(l => l.tag === 'pt-BR')?.name).toBe('portugais (Brésil)')
    const frenchNames = new Intl.DisplayNames(['fr'], { type: 'language', languageDisplay: 'standard', fallback: 'none' })
    const english = new Map(list.map(l => [l.tag, l.name]))
    const unnamed = french.filter(l => frenchNames.of(l.tag) === undefined)
    const englishLanguage = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
    const named = unnamed.filter(l => englishLanguage.of(l.tag.split('-')[0]!) !== undefined)
    // hnj-Hmnp has an English name and no French one: the language's English name, its script's French one
    expect(named.map(l => l.tag)).toContain('hnj-Hmnp')
    expect(french.find(l => l.tag === 'hnj-Hmnp')?.name).toBe(`${englishLanguage.of('hnj')!} (${new Intl.DisplayNames(['fr'], { type: 'script' }).of('Hmnp')!})`)
    for (const locale of named) expect(locale.name.startsWith(englishLanguage.of(locale.tag.split('-')[0]!)!), locale.tag).toBe(true)
    expect(english.get('hnj-Hmnp')).toBe(`${englishLanguage.of('hnj')!} (Nyiakeng Puachue Hmong)`)
    // the rest have no name in either: French pattern around the codes
    for (const locale of unnamed.filter(l => !named.includes(l))) expect(locale.name).toMatch(/^[a-z]{2,3}( \(.+\))?$/)
    expect(french.find(l => l.tag === 'apc-SY')?.name).toBe('apc (Syrie)')
  })

  it('refuses a malformed display language with a 400 at /display', async () => {
    const error: unknown = await listLocales({ display: '123' }).then(() => undefined, (e: unknown) => e)
    expect(error).toBeInstanceOf(ValidationError)
    expect((error as ValidationError).errors?.[0]?.path).toEqual(['display'])
  })
})

describe('TONES', () => {
  it('are the 33 tones, in the order GET /language/edit/tones lists them', () => {
    expect(TONES).toEqual([
      'none', 'academic', 'admiring', 'amused', 'angry', 'annoyed', 'approving', 'aware', 'confident',
      'confused', 'curious', 'disappointed', 'disapproving', 'eager', 'embarrassed', 'excited', 'fearful',
      'friendly', 'funny', 'grateful', 'joyful', 'loving', 'mournful', 'neutral', 'optimistic',
      'professional', 'relieved', 'remorseful', 'repulsed', 'sad', 'worried', 'surprised', 'sympathetic'
    ])
    expect(new Set(TONES).size).toBe(33)
  })
})
