import { describe, expect, it } from 'vitest'
import { parseTagged, serializeTagged } from '../../../../src/core/tagged.js'
import { tidy } from '../../../../src/providers/apertium/tidy.js'

const tidied = (outputTagged: string, sourceTagged: string): string => serializeTagged(tidy(parseTagged(outputTagged), parseTagged(sourceTagged)))

describe('tidying Apertium output', () => {
  it('drops the spaces left by dropped words unless the source has such spaces', () => {
    expect(tidied(' Tengo un perro.', 'I have a dog.')).toBe('Tengo un perro.')
    expect(tidied('Eres seguro  quieres', 'Are you sure you want')).toBe('Eres seguro quieres')
    expect(tidied('Hola.\n Mundo ', 'Hello.\nWorld')).toBe('Hola.\nMundo')
    expect(tidied(' a  b ', ' a  b ')).toBe(' a  b ')
  })

  it('lower-cases the first word when the source line starts in lower case', () => {
    expect(tidied('Salva cambios', 'save changes')).toBe('salva cambios')
    expect(tidied('<x id="1"/> Te ha invitado', '<x id="1"/> has invited you')).toBe('<x id="1"/> te ha invitado')
    expect(tidied('Uno\nDos', 'one\nTwo')).toBe('uno\nDos')
  })

  it('leaves capitals alone where the source has them, and one-letter words and acronyms', () => {
    expect(tidied('Salva cambios', 'Save changes')).toBe('Salva cambios')
    expect(tidied('I have', 'tengo')).toBe('I have')
    expect(tidied('USA es grande', 'usa is big')).toBe('USA es grande')
  })
})
