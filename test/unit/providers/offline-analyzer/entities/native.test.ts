import { beforeAll, describe, expect, it } from 'vitest'
import { findEntities, loadEntities } from '../../../../../src/providers/offline-analyzer/entities/index.js'
import type { EntityType, FoundEntity } from '../../../../../src/core/analysis/results.js'

beforeAll(async () => { await loadEntities() }, 60_000)

const OFFLINE_TYPES: readonly EntityType[] = ['PERSON', 'LOCATION', 'ORGANIZATION', 'DATE', 'NUMBER', 'PRICE', 'PHONE_NUMBER', 'EMAIL', 'URL', 'ADDRESS']

const listed = (entities: FoundEntity[]): string[] => entities.map(e => `${e.type}:${e.name}`)

/** The entities of `text`, each of a type docs/api.md lists for the offline analyser, every mention slicing the text at its code-point offsets. */
function entitiesOf (text: string, language: string): FoundEntity[] {
  const entities = findEntities(text, language)
  const points = Array.from(text)
  for (const entity of entities) {
    expect(OFFLINE_TYPES, `${entity.type} ${entity.name}`).toContain(entity.type)
    for (const m of entity.mentions) expect(points.slice(m.offset, m.offset + m.length).join('')).toBe(m.text)
  }
  return entities
}

const one = (entities: FoundEntity[], type: EntityType, name: string): FoundEntity => {
  const found = entities.filter(e => e.type === type && e.name === name)
  expect(found, `${type} ${name} in ${JSON.stringify(listed(entities))}`).toHaveLength(1)
  return found[0]!
}

describe('entities: German day and month without a year', () => {
  it('reads "am 24.12." as a date with its closing point, not the number 24.12', () => {
    const text = 'Heiligabend ist am 24.12. und Silvester am 31.12., der Laden hat am 2.1. wieder offen.'
    const entities = entitiesOf(text, 'de')
    for (const date of ['24.12.', '31.12.', '2.1.']) one(entities, 'DATE', date)
    expect(entities.filter(e => e.type === 'NUMBER'), JSON.stringify(listed(entities))).toEqual([])
    one(entitiesOf('Die Frist endet am 15.3. um Mitternacht.', 'de'), 'DATE', '15.3.')
    one(entitiesOf('Geöffnet vom 24.12. bis 6.1. täglich.', 'de'), 'DATE', '6.1.')
    one(entitiesOf('Das Fest beginnt 24.12. um 18 Uhr.', 'de'), 'DATE', '24.12.')
    const range = entitiesOf('Geschlossen 24.12.–26.12. wegen Inventur.', 'de')
    one(range, 'DATE', '24.12.')
    one(range, 'DATE', '26.12.')
  })

  it('leaves decimals and versions numbers, and impossible days and months alone', () => {
    for (const text of ['Die Inflation lag am Ende bei 2.5 Prozent.', 'Neu ist Version 3.1.', 'Der Wert stieg am 3.1 Tag.', 'Termin am 31.2. oder am 12.13.']) {
      const entities = entitiesOf(text, 'de')
      expect(entities.filter(e => e.type === 'DATE'), `${text}: ${JSON.stringify(listed(entities))}`).toEqual([])
    }
  })
})

describe('entities: Spanish ordinal day after a full stop', () => {
  it('reads "1.º de mayo" as the date with its day, as "1.° de marzo" and "1º de junio"', () => {
    const entities = entitiesOf('El 1.º de mayo es fiesta y el 1º de junio también.', 'es')
    one(entities, 'DATE', '1.º de mayo')
    one(entities, 'DATE', '1º de junio')
    expect(entities.filter(e => e.type === 'NUMBER'), JSON.stringify(listed(entities))).toEqual([])
    for (const [text, date] of [['El 1.º de mayo de 2024 llovió.', '1.º de mayo de 2024'], ['El 1.° de mayo de 2024 llovió.', '1.° de mayo de 2024']]) {
      const found = entitiesOf(text!, 'es')
      expect(one(found, 'DATE', date!).value).toBe('2024-05-01')
      expect(found.filter(e => e.type === 'NUMBER'), JSON.stringify(listed(found))).toEqual([])
    }
  })
})

describe('entities: a person of an organisation', () => {
  const cases: Array<[string, string, string, string]> = [
    ['fr', 'Hier, Marie Dupont de la Société Générale a parlé.', 'Marie Dupont', 'Société Générale'],
    ['fr', 'Hier, Pierre Martin du Crédit Agricole a parlé.', 'Pierre Martin', 'Crédit Agricole'],
    ['es', 'Ayer, José Luis Rodríguez Zapatero del Banco de España habló.', 'José Luis Rodríguez Zapatero', 'Banco de España'],
    ['es', 'Ayer habló Ana Botín del Banco Santander.', 'Ana Botín', 'Banco Santander'],
    ['it', "Ieri Mario Draghi della Banca d'Italia ha parlato.", 'Mario Draghi', "Banca d'Italia"],
    ['pt', 'Ontem João Silva do Banco do Brasil falou.', 'João Silva', 'Banco do Brasil']
  ]
  it.each(cases)('%s: %s is the person and the organisation', (language, text, person, organization) => {
    const entities = entitiesOf(text, language)
    one(entities, 'PERSON', person)
    one(entities, 'ORGANIZATION', organization)
    expect(entities.filter(e => e.type === 'PERSON' || e.type === 'ORGANIZATION'), JSON.stringify(listed(entities))).toHaveLength(2)
  })

  it('keeps an organisation whose name holds a particle whole, and one after an office', () => {
    one(entitiesOf('Il travaille à la Banque de France depuis 2010.', 'fr'), 'ORGANIZATION', 'Banque de France')
    one(entitiesOf('Trabaja en la Universidad Complutense de Madrid.', 'es'), 'ORGANIZATION', 'Universidad Complutense de Madrid')
    const entities = entitiesOf('Elle a écrit au Président de la Banque Mondiale.', 'fr')
    one(entities, 'ORGANIZATION', 'Banque Mondiale')
    expect(entities.filter(e => e.type === 'ORGANIZATION'), JSON.stringify(listed(entities))).toHaveLength(1)
  })
})

describe('entities: common given names', () => {
  const cases: Array<[string, string, string[]]> = [
    ['fr', 'Hier, Jean Dupont et Jean Castex ont vu Jean-Luc Mélenchon, Jean-Pierre Raffarin et Jean-Claude Juncker.',
      ['Jean Dupont', 'Jean Castex', 'Jean-Luc Mélenchon', 'Jean-Pierre Raffarin', 'Jean-Claude Juncker']],
    ['de', 'Gestern sprachen Heinz Rummenigge, Karl-Heinz Rummenigge und Frank-Walter Steinmeier.',
      ['Heinz Rummenigge', 'Karl-Heinz Rummenigge', 'Frank-Walter Steinmeier']],
    ['nl', 'Gisteren spraken Willem de Vries, Willem Holleeder en koning Willem-Alexander.', ['Willem de Vries', 'Willem Holleeder', 'Willem-Alexander']]
  ]
  it.each(cases)('%s: %s', (language, text, persons) => {
    const entities = entitiesOf(text, language)
    for (const person of persons) one(entities, 'PERSON', person)
  })

  it('reports no proper name of unknown kind: "la Tour Eiffel" is no documented type', () => {
    const entities = entitiesOf('Nous avons visité la Tour Eiffel avec le Real Madrid.', 'fr')
    expect(entities.filter(e => e.name === 'Tour Eiffel' || e.name === 'Real Madrid'), JSON.stringify(listed(entities))).toEqual([])
  })
})
