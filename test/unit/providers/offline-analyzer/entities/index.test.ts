import { beforeAll, describe, expect, it } from 'vitest'
import { ENTITY_LANGUAGES, EntityModelsNotLoadedError, findEntities, loadEntities } from '../../../../../src/providers/offline-analyzer/entities/index.js'
import type { EntityType, FoundEntity } from '../../../../../src/core/analysis/results.js'
import { createOfflineAnalyzer } from '../../../../../src/providers/offline-analyzer/index.js'

beforeAll(async () => { await loadEntities() }, 60_000)

const ofType = (entities: FoundEntity[], type: EntityType): FoundEntity[] => entities.filter(e => e.type === type)
const one = (entities: FoundEntity[], type: EntityType, name: string): FoundEntity => {
  const found = entities.filter(e => e.type === type && e.name === name)
  expect(found, `${type} ${name} in ${JSON.stringify(entities.map(e => `${e.type}:${e.name}`))}`).toHaveLength(1)
  return found[0]!
}

/** Every mention's offset and length slice its text out of the text, in code points. */
function expectOffsetsSlice (text: string, entities: FoundEntity[]): void {
  const points = Array.from(text)
  for (const entity of entities) {
    expect(entity.mentions.length).toBeGreaterThan(0)
    for (const m of entity.mentions) expect(points.slice(m.offset, m.offset + m.length).join('')).toBe(m.text)
    const offsets = entity.mentions.map(m => m.offset)
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b))
  }
  const firsts = entities.map(e => e.mentions[0]!.offset)
  expect(firsts).toEqual([...firsts].sort((a, b) => a - b))
}

describe('entities: API', () => {
  it('lists the seven languages', () => {
    expect(ENTITY_LANGUAGES).toEqual(expect.arrayContaining(['en', 'fr', 'de', 'es', 'it', 'pt', 'nl']))
  })

  it('loads once: later calls share the same promise', async () => {
    const first = loadEntities()
    expect(loadEntities()).toBe(first)
    await first
  })

  it('has a typed error for calls before loading', () => {
    expect(new EntityModelsNotLoadedError()).toBeInstanceOf(Error)
  })
})

describe('entities: English', () => {
  it('merges a later surname into the full name of a person', () => {
    const text = 'Barack Obama visited Paris with Michelle. Obama spoke at the Sorbonne.'
    const entities = findEntities(text, 'en')
    const obama = one(entities, 'PERSON', 'Barack Obama')
    expect(obama.mentions.map(m => m.text)).toEqual(['Barack Obama', 'Obama'])
    expect(obama.mentions.map(m => m.offset)).toEqual([0, 42])
    one(entities, 'LOCATION', 'Paris')
    expect(ofType(entities, 'PERSON').some(e => e.name === 'Obama')).toBe(false)
    expect(entities[0]!.name).toBe('Barack Obama')
    expectOffsetsSlice(text, entities)
  })

  it('reads an organisation, one price and a date', () => {
    const text = 'Apple Inc. said revenue rose to $1 billion on March 3, 2024.'
    const entities = findEntities(text, 'en')
    one(entities, 'ORGANIZATION', 'Apple Inc.')
    const prices = ofType(entities, 'PRICE')
    expect(prices).toHaveLength(1)
    expect(prices[0]!.name).toBe('$1 billion')
    expect(prices[0]!.value).toBe('1000000000 USD')
    const date = one(entities, 'DATE', 'March 3, 2024')
    expect(date.value).toBe('2024-03-03')
    // the 1 of the price and the 3 and 2024 of the date are not numbers of their own
    expect(ofType(entities, 'NUMBER')).toEqual([])
    expectOffsetsSlice(text, entities)
  })

  it('reads a company by a role only a company has: "CEO of Apple", "Apple\'s CFO", not "the founder of Rome" nor a person\'s employees', () => {
    const ceo = findEntities('Tim Cook is the CEO of Apple.', 'en')
    one(ceo, 'PERSON', 'Tim Cook')
    expect(one(ceo, 'ORGANIZATION', 'Apple').mentions).toEqual([{ offset: 23, length: 5, text: 'Apple' }])
    one(findEntities("Apple's CFO spoke to shareholders of Acme Widgets today.", 'en'), 'ORGANIZATION', 'Acme Widgets')
    one(findEntities("Apple's CFO spoke today.", 'en'), 'ORGANIZATION', 'Apple')
    one(findEntities('She is the chairman of the Federal Reserve Board.', 'en'), 'ORGANIZATION', 'Federal Reserve Board')
    expect(ofType(findEntities('The founder of Rome was Romulus.', 'en'), 'ORGANIZATION')).toEqual([])
    expect(ofType(findEntities("He was the CEO of Musk's firm. Obama's employees left.", 'en'), 'ORGANIZATION')).toEqual([])
  })

  it('merges "Apple" into "Apple Inc."', () => {
    const text = 'Apple Inc. reported record sales. Analysts said Apple would hire more engineers.'
    const apple = one(findEntities(text, 'en'), 'ORGANIZATION', 'Apple Inc.')
    expect(apple.mentions.map(m => m.text)).toEqual(['Apple Inc.', 'Apple'])
  })

  it('finds phone numbers with their E.164 value, e-mail addresses and URLs', () => {
    const text = 'Call (415) 555-2671 or +44 20 7946 0958, write to jane.doe@example.com or see https://example.org/docs?page=2.'
    const entities = findEntities(text, 'en')
    expect(ofType(entities, 'PHONE_NUMBER').map(e => e.value)).toEqual(['+14155552671', '+442079460958'])
    expect(ofType(entities, 'PHONE_NUMBER').map(e => e.name)).toEqual(['(415) 555-2671', '+44 20 7946 0958'])
    one(entities, 'EMAIL', 'jane.doe@example.com')
    one(entities, 'URL', 'https://example.org/docs?page=2')
    // no digit group of the phone numbers is a number of its own
    expect(ofType(entities, 'NUMBER')).toEqual([])
    expectOffsetsSlice(text, entities)
  })

  it('finds street addresses with a house number and a street word', () => {
    const text = 'The White House is at 1600 Pennsylvania Avenue NW, and Sherlock Holmes lived at 221B Baker Street.'
    const entities = findEntities(text, 'en')
    one(entities, 'ADDRESS', '1600 Pennsylvania Avenue NW')
    one(entities, 'ADDRESS', '221B Baker Street')
    expectOffsetsSlice(text, entities)
  })

  it('counts offsets in code points after emoji', () => {
    const text = '😀🎉 Angela Merkel met Tim Cook in Berlin 🇩🇪. Cook wrote to tim@apple.com.'
    const entities = findEntities(text, 'en')
    const merkel = one(entities, 'PERSON', 'Angela Merkel')
    expect(merkel.mentions[0]!.offset).toBe(3)
    const cook = one(entities, 'PERSON', 'Tim Cook')
    expect(cook.mentions.map(m => m.text)).toEqual(['Tim Cook', 'Cook'])
    one(entities, 'EMAIL', 'tim@apple.com')
    expectOffsetsSlice(text, entities)
  })

  it('reads a place that is also a given name as a place after a preposition of place, and in a list after one', () => {
    const adelaide = findEntities('Next week I am flying to Adelaide for work.', 'en')
    one(adelaide, 'LOCATION', 'Adelaide')
    expect(ofType(adelaide, 'PERSON')).toEqual([])
    const drove = findEntities('We drove to Austin and Charlotte.', 'en')
    one(drove, 'LOCATION', 'Austin')
    one(drove, 'LOCATION', 'Charlotte')
    expect(ofType(drove, 'PERSON')).toEqual([])
    one(findEntities('She grew up in Houston.', 'en'), 'LOCATION', 'Houston')
    one(findEntities("I'm from Adelaide.", 'en'), 'LOCATION', 'Adelaide')
  })

  it('reads a city named like a person that compromise tags neither ("Florence") as a place after a preposition of place, else as a person with its surname', () => {
    const city = findEntities('I live in Florence.', 'en')
    one(city, 'LOCATION', 'Florence')
    expect(ofType(city, 'PERSON')).toEqual([])
    const actress = findEntities('Florence Pugh is an actress.', 'en')
    one(actress, 'PERSON', 'Florence Pugh')
    expect(ofType(actress, 'LOCATION')).toEqual([])
    one(findEntities('We flew to Florence and Rome.', 'en'), 'LOCATION', 'Florence')
    one(findEntities('I talked to Florence yesterday.', 'en'), 'PERSON', 'Florence')
  })

  it('keeps a person after "to", "from" or "at" where nothing moves ("talked to Charlotte")', () => {
    for (const text of ['I talked to Charlotte yesterday.', 'We got a letter from Charlotte.', 'Everyone looked at Charlotte.']) {
      const entities = findEntities(text, 'en')
      one(entities, 'PERSON', 'Charlotte')
      expect(ofType(entities, 'LOCATION'), text).toEqual([])
    }
  })

  it('reads two places joined by "&" as two places, not one company; "Procter & Gamble" stays one', () => {
    for (const [text, first, second] of [['I flew between Berlin & Paris last week.', 'Berlin', 'Paris'], ['The train runs London & Manchester daily.', 'London', 'Manchester']] as const) {
      const entities = findEntities(text, 'en')
      one(entities, 'LOCATION', first)
      one(entities, 'LOCATION', second)
      expect(ofType(entities, 'ORGANIZATION'), text).toEqual([])
    }
    one(findEntities('Procter & Gamble reported results.', 'en'), 'ORGANIZATION', 'Procter & Gamble')
  })

  it('reads a numeric date in the order of the region\'s short dates: day first in en-GB, en-AU, en-IN, en-ZA; month first in en, en-US, en-PH', () => {
    const text = 'The meeting is on 03/04/2024.'
    for (const language of ['en-GB', 'en-AU', 'en-IN', 'en-ZA', 'en-NZ', 'en-IE']) {
      expect(one(findEntities(text, language), 'DATE', '03/04/2024').value, language).toBe('2024-04-03')
    }
    for (const language of ['en', 'en-US', 'en-PH']) {
      expect(one(findEntities(text, language), 'DATE', '03/04/2024').value, language).toBe('2024-03-04')
    }
    // a day over 12 reads the one way it can, in either order
    expect(one(findEntities('Due 12/31/2024.', 'en-GB'), 'DATE', '12/31/2024').value).toBe('2024-12-31')
    expect(one(findEntities('Due 31/12/2024.', 'en-US'), 'DATE', '31/12/2024').value).toBe('2024-12-31')
    expect(one(findEntities('The meeting is on March 3, 2024.', 'en-GB'), 'DATE', 'March 3, 2024').value).toBe('2024-03-03')
  })

  it('reads a region\'s numeric dates through the offline analyser, which passes the whole tag', async () => {
    const analyzer = createOfflineAnalyzer()
    const answer = await analyzer.analyze('The meeting is on 03/04/2024.', 'en-GB', ['entities'], new AbortController().signal)
    expect(one(answer.entities ?? [], 'DATE', '03/04/2024').value).toBe('2024-04-03')
  })

  it('keeps every entity within its line: a name listed a line apiece is one, a date or amount stops at the line\'s end (a probe got "Maria Lopez\\nJohn Smith")', () => {
    const lines = (text: string): FoundEntity[] => {
      const entities = findEntities(text, 'en')
      for (const e of entities) for (const m of e.mentions) expect(m.text, `${e.type} ${JSON.stringify(m.text)}`).not.toMatch(/[\n\r]/)
      expectOffsetsSlice(text, entities)
      return entities
    }
    for (const text of ['Our team\nMaria Lopez\nJohn Smith\nBerlin office', 'Our team\r\nMaria Lopez\r\nJohn Smith\r\nBerlin office']) {
      const team = lines(text)
      one(team, 'PERSON', 'Maria Lopez')
      one(team, 'PERSON', 'John Smith')
    }
    one(lines('Houston\n\nSaddam Hussein ruled Iraq.'), 'PERSON', 'Saddam Hussein')
    for (const text of ['Due on 3 March\n2024 at noon.', 'We paid $12\nmillion.', 'Twelve\nthousand people came.']) {
      expect(lines(text).length, text).toBeGreaterThan(0)
    }
  })

  it('reads a middle initial as part of the name ("John F. Kennedy"), not the end of one', () => {
    const text = 'Clement C. Moore wrote it; John F. Kennedy, Samuel L. Jackson and J.K. Rowling read it.'
    const entities = findEntities(text, 'en')
    for (const name of ['Clement C. Moore', 'John F. Kennedy', 'Samuel L. Jackson', 'J.K. Rowling']) one(entities, 'PERSON', name)
    expect(ofType(entities, 'PERSON')).toHaveLength(4)
    expectOffsetsSlice(text, entities)
  })

  it('keeps the whole name of a person before a possessive ("Saddam Hussein\'s"), without the possessive', () => {
    const text = "Saddam Hussein's Baghdad dictatorship fell; Recep Tayyip Erdogan's party won."
    const entities = findEntities(text, 'en')
    expect(one(entities, 'PERSON', 'Saddam Hussein').mentions.map(m => m.text)).toEqual(['Saddam Hussein'])
    one(entities, 'PERSON', 'Recep Tayyip Erdogan')
    one(entities, 'LOCATION', 'Baghdad')
    expect(ofType(entities, 'PERSON')).toHaveLength(2)
    expectOffsetsSlice(text, entities)
    // a word that is no name before the possessive stays out of it
    const yesterday = findEntities("Yesterday Obama's speech was long.", 'en')
    one(yesterday, 'PERSON', 'Obama')
  })

  it('reads a name with an organisation\'s word as the organisation, whatever place it names ("New York Stock Exchange", "Bank of America")', () => {
    const cases: ReadonlyArray<readonly [string, string]> = [
      ['He saved at the New York Savings Bank.', 'New York Savings Bank'],
      ['We visited the Museum of Fine Arts in Boston.', 'Museum of Fine Arts'],
      ['She works for Bank of America.', 'Bank of America'],
      ['Shares fell on the New York Stock Exchange.', 'New York Stock Exchange'],
      ['The Washington Post reported it.', 'Washington Post'],
      ['I read the Chicago Tribune every day.', 'Chicago Tribune']
    ]
    for (const [text, name] of cases) {
      const entities = findEntities(text, 'en')
      one(entities, 'ORGANIZATION', name)
      for (const e of entities) expect(name.includes(e.name) && e.type !== 'ORGANIZATION', `${e.type} ${e.name} in ${text}`).toBe(false)
      expectOffsetsSlice(text, entities)
    }
    // the word alone, or before another word of a place, names no organisation
    const streets = findEntities('Meet me in Times Square, then on Museum Street.', 'en')
    expect(ofType(streets, 'ORGANIZATION')).toEqual([])
  })

  it('finds nothing in a sentence without entities but its number', () => {
    const entities = findEntities('The meeting is at three.', 'en')
    expect(entities.map(e => e.type)).toEqual(['NUMBER'])
    expect(entities[0]!.value).toBe('3')
  })
})

describe('entities: other languages', () => {
  it('French: person, country, price in euros, e-mail, date, organisation, address', () => {
    const text = 'Emmanuel Macron a rencontré Angela Merkel en Allemagne le 3 mars 2024. Macron a promis 1.234,56 € à la Banque de France. ' +
      'Écrivez à contact@exemple.fr ou appelez le 01 23 45 67 89, au 10 rue de Rivoli.'
    const entities = findEntities(text, 'fr')
    expect(one(entities, 'PERSON', 'Emmanuel Macron').mentions.map(m => m.text)).toEqual(['Emmanuel Macron', 'Macron'])
    one(entities, 'PERSON', 'Angela Merkel')
    one(entities, 'LOCATION', 'Allemagne')
    expect(one(entities, 'DATE', '3 mars 2024').value).toBe('2024-03-03')
    expect(one(entities, 'PRICE', '1.234,56 €').value).toBe('1234.56 EUR')
    one(entities, 'ORGANIZATION', 'Banque de France')
    one(entities, 'EMAIL', 'contact@exemple.fr')
    expect(one(entities, 'PHONE_NUMBER', '01 23 45 67 89').value).toBe('+33123456789')
    one(entities, 'ADDRESS', '10 rue de Rivoli')
    expectOffsetsSlice(text, entities)
  })

  it('German: person, country, price, e-mail, company; nouns are no persons', () => {
    const text = 'Olaf Scholz besuchte am 3. März 2024 die Siemens AG in Österreich. Der Eintritt kostet 12,50 Euro. Kontakt: info@beispiel.de. ' +
      'Der Roman erzählt vom Tod eines Bauern; die Kinder spielten im Garten mit dem Ball, und die Gabe des Lehrers war groß.'
    const entities = findEntities(text, 'de')
    one(entities, 'PERSON', 'Olaf Scholz')
    one(entities, 'LOCATION', 'Österreich')
    expect(one(entities, 'DATE', '3. März 2024').value).toBe('2024-03-03')
    one(entities, 'ORGANIZATION', 'Siemens AG')
    expect(one(entities, 'PRICE', '12,50 Euro').value).toBe('12.5 EUR')
    one(entities, 'EMAIL', 'info@beispiel.de')
    expect(ofType(entities, 'PERSON').map(e => e.name)).toEqual(['Olaf Scholz'])
    expect(ofType(entities, 'OTHER')).toEqual([])
    expectOffsetsSlice(text, entities)
  })

  it('German: a surname after an article is a noun ("der Bauer"), alone it is the person', () => {
    const text = 'Peter Bauer traf Frau Schmidt. Der Bauer pflügt das Feld. Bauer sagte, es regne.'
    const entities = findEntities(text, 'de')
    expect(one(entities, 'PERSON', 'Peter Bauer').mentions.map(m => m.offset)).toEqual([0, 58])
    one(entities, 'PERSON', 'Schmidt')
  })

  it('Spanish: person, country, price, e-mail, date, company, address', () => {
    const text = 'Pedro Sánchez viajó a Estados Unidos el 3 de marzo de 2024. El Banco Santander, S.A. pagó 3 millones de euros. ' +
      'Escriba a info@ejemplo.es o visite la oficina en Calle de Alcalá 45.'
    const entities = findEntities(text, 'es')
    one(entities, 'PERSON', 'Pedro Sánchez')
    one(entities, 'LOCATION', 'Estados Unidos')
    expect(one(entities, 'DATE', '3 de marzo de 2024').value).toBe('2024-03-03')
    one(entities, 'ORGANIZATION', 'Banco Santander, S.A.')
    expect(one(entities, 'PRICE', '3 millones de euros').value).toBe('3000000 EUR')
    one(entities, 'EMAIL', 'info@ejemplo.es')
    one(entities, 'ADDRESS', 'Calle de Alcalá 45')
    expectOffsetsSlice(text, entities)
  })

  it('French, German, Spanish: numeric dates day first, in every region', () => {
    for (const [text, language] of [['La réunion est le 03/04/2024.', 'fr'], ['La réunion est le 03/04/2024.', 'fr-CA'], ['Das Treffen ist am 03.04.2024.', 'de-AT'], ['La reunión es el 03/04/2024.', 'es-US']] as const) {
      expect(one(findEntities(text, language), 'DATE', text.match(/[0-9][0-9./]+[0-9]/)![0]).value, language).toBe('2024-04-03')
    }
  })

  it('Italian, Portuguese and Dutch: persons, places, prices and dates', () => {
    const it = findEntities('Mario Draghi ha parlato a Roma il 12 maggio 2023: la Fiat S.p.A. costa 20 milioni di euro.', 'it')
    one(it, 'PERSON', 'Mario Draghi')
    one(it, 'LOCATION', 'Roma')
    expect(one(it, 'PRICE', '20 milioni di euro').value).toBe('20000000 EUR')
    one(it, 'ORGANIZATION', 'Fiat S.p.A.')
    const pt = findEntities('João Silva mora em Lisboa, Portugal, desde 5 de janeiro de 2020 e ganha € 2.500 por mês.', 'pt-PT')
    one(pt, 'PERSON', 'João Silva')
    one(pt, 'LOCATION', 'Portugal')
    expect(one(pt, 'DATE', '5 de janeiro de 2020').value).toBe('2020-01-05')
    expect(one(pt, 'PRICE', '€ 2.500').value).toBe('2500 EUR')
    const nl = findEntities('Jan de Vries woont sinds 4 mei 2022 in België en verdient 12 miljoen euro bij Philips N.V.', 'nl')
    one(nl, 'PERSON', 'Jan de Vries')
    one(nl, 'LOCATION', 'België')
    expect(one(nl, 'PRICE', '12 miljoen euro').value).toBe('12000000 EUR')
  })

  it('French and Spanish: a place of several words after a preposition of place is no person ("pour Santiago de Chile", "à Santiago de Cuba")', () => {
    for (const [text, language, place] of [
      ['Je pars demain pour Santiago de Chile avec ma sœur.', 'fr', 'Santiago de Chile'],
      ['Mañana viajo a Santiago de Chile con mi hermana.', 'es', 'Santiago de Chile'],
      // not in the list of cities, but a city's name with a country's
      ['Elle part à Santiago de Cuba en mai.', 'fr', 'Santiago de Cuba']
    ] as const) {
      const entities = findEntities(text, language)
      one(entities, 'LOCATION', place)
      expect(ofType(entities, 'PERSON'), text).toEqual([])
      expectOffsetsSlice(text, entities)
    }
    one(findEntities('Le poème est attribué à Marie de France.', 'fr'), 'PERSON', 'Marie de France')
  })

  it('a city named like a person with more of its name after a particle is a place after a preposition of place ("a Santiago de Compostela")', () => {
    for (const [text, language] of [
      ['Mañana viajo a Santiago de Compostela.', 'es'],
      ['Vivo en Santiago de Compostela.', 'es'],
      ['Ich fliege nach Santiago de Compostela.', 'de']
    ] as const) {
      const entities = findEntities(text, language)
      one(entities, 'LOCATION', 'Santiago de Compostela')
      expect(ofType(entities, 'PERSON'), text).toEqual([])
      expectOffsetsSlice(text, entities)
    }
  })

  it('capitalised words joined by a particle right after a preposition of place are a place no list holds; a person or organisation there stays one', () => {
    const text = 'La señora García vive en Las Palmas de Gran Canaria.'
    const entities = findEntities(text, 'es')
    one(entities, 'PERSON', 'García')
    one(entities, 'LOCATION', 'Las Palmas de Gran Canaria')
    expect(ofType(entities, 'OTHER')).toEqual([])
    expectOffsetsSlice(text, entities)
    one(findEntities('Vivo en Jerez de la Frontera.', 'es'), 'LOCATION', 'Jerez de la Frontera')
    one(findEntities('Abito a Reggio di Calabria.', 'it'), 'LOCATION', 'Reggio di Calabria')
    // a given name is no place, nor is a bank
    const met = findEntities('Conocí a Pedro de la Vega en Madrid.', 'es')
    one(met, 'PERSON', 'Pedro')
    expect(ofType(met, 'LOCATION').map(e => e.name)).toEqual(['Madrid'])
    const bank = findEntities('Trabajo en Banco de España.', 'es')
    one(bank, 'ORGANIZATION', 'Banco de España')
    expect(ofType(bank, 'LOCATION')).toEqual([])
    // German capitalises its nouns: only the Romance "de" joins a name there
    expect(ofType(findEntities('Er wohnt in Haus der Kunst.', 'de'), 'LOCATION')).toEqual([])
  })

  it('French: "La Réunion" is the island, "la réunion" (the meeting) at a sentence start is not', () => {
    expect(ofType(findEntities('La réunion a commencé à 9h et a duré deux heures.', 'fr'), 'LOCATION')).toEqual([])
    one(findEntities('Je suis né à La Réunion.', 'fr'), 'LOCATION', 'La Réunion')
    one(findEntities('La Réunion est une île.', 'fr'), 'LOCATION', 'La Réunion')
    const island = findEntities("Il vit sur l'île de la Réunion depuis 2010.", 'fr')
    one(island, 'LOCATION', 'la Réunion')
    expectOffsetsSlice("Il vit sur l'île de la Réunion depuis 2010.", island)
  })

  it('keeps a date within its line ("3 mars" of "3 mars\\n2024")', () => {
    for (const [text, language, date] of [['Le 3 mars\n2024 à Paris.', 'fr', '3 mars'], ['Am 3. März\n2024 in Berlin.', 'de', '3. März'],
      ['desde 5 de\njaneiro de 2020', 'pt', 'janeiro de 2020'], ['el 3 de marzo de\n2024', 'es', '3 de marzo']] as const) {
      const entities = findEntities(text, language)
      for (const e of entities) for (const m of e.mentions) expect(m.text, `${language} ${e.type} ${JSON.stringify(m.text)}`).not.toMatch(/\n/)
      one(entities, 'DATE', date)
      expectOffsetsSlice(text, entities)
    }
  })

  it('a language without its own finders still gets e-mail addresses and numbers', () => {
    const entities = findEntities('Skriv till anna@example.se, 42 gånger.', 'sv')
    one(entities, 'EMAIL', 'anna@example.se')
    expect(one(entities, 'NUMBER', '42').value).toBe('42')
  })
})

describe('entities: hostile input', () => {
  const hostile: Record<string, string> = {
    'one long word': 'A'.repeat(100_000),
    honorifics: 'Mr. '.repeat(25_000),
    'at signs': 'a@'.repeat(50_000),
    schemes: 'http://'.repeat(14_286),
    'digit groups': '1 '.repeat(50_000),
    'symbol soup': Array.from({ length: 100_000 }, (_, i) => 'Aa1.@€ -/,'[i * 7 % 10]).join('')
  }
  for (const [name, text] of Object.entries(hostile)) {
    it(`returns on 100,000 characters of ${name}`, () => {
      for (const language of ['en', 'de']) {
        const entities = findEntities(text, language)
        expect(Array.isArray(entities)).toBe(true)
        expectOffsetsSlice(text, entities)
      }
    })
  }
})
