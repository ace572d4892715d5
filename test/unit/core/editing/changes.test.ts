import { describe, expect, it } from 'vitest'
import { changesOf, diffChanges, sentencesOf } from '../../../../src/core/editing/changes.js'
import type { EditNote } from '../../../../src/core/ports.js'

const slice = (text: string, offset: number, length: number): string => Array.from(text).slice(offset, offset + length).join('')

/** The original with every change applied (offsets in code points of the original). */
function apply (text: string, changes: ReadonlyArray<{ offset: number, length: number, replacement: string }>): string {
  const points = Array.from(text)
  for (const c of [...changes].sort((a, b) => b.offset - a.offset)) points.splice(c.offset, c.length, ...Array.from(c.replacement))
  return points.join('')
}

describe('diffChanges', () => {
  it('lists word-level replacements with code-point offsets that slice the original', () => {
    const before = '😀 Their going to the libary.'
    const after = "😀 They're going to the library."
    const changes = diffChanges(before, after, [], ['grammar'])
    expect(changes).toEqual([
      { offset: 2, length: 5, original: 'Their', replacement: "They're", type: 'grammar' },
      { offset: 21, length: 6, original: 'libary', replacement: 'library', type: 'grammar' }
    ])
    for (const c of changes) expect(slice(before, c.offset, c.length)).toBe(c.original)
  })

  it('attributes each change to the note that explains it, with its reason', () => {
    const notes: EditNote[] = [
      { original: 'libary', replacement: 'library', type: 'grammar', reason: 'Misspelling' },
      { original: 'in order to', replacement: 'to', type: 'simplify', reason: 'Wordy' }
    ]
    const changes = diffChanges('Go to the libary in order to read.', 'Go to the library to read.', notes, ['grammar', 'simplify'])
    expect(changes.map(c => [c.original.trim(), c.type, c.reason])).toEqual([
      ['libary', 'grammar', 'Misspelling'],
      ['in order', 'simplify', 'Wordy']
    ])
  })

  it('never lends a note to a hunk it does not explain: whole words, whitespace hunks matched as they are', () => {
    const notes: EditNote[] = [
      { original: 'i', replacement: 'I', type: 'syntax', reason: 'Capital' },
      { original: '  ', replacement: ' ', type: 'syntax', reason: 'Space' },
      { original: 'is is', replacement: 'is', type: 'syntax', reason: 'Repeated' }
    ]
    const changes = diffChanges('i think  this is is good.', 'I think this is good.', notes, ['syntax'])
    expect(changes.map(c => [c.original, c.reason])).toEqual([['i', 'Capital'], ['  ', 'Space'], [expect.stringMatching(/is/), 'Repeated']])
    // "i" -> "I" does not explain "is" -> "" even when it is the only note
    expect(diffChanges('i is is ok.', 'I is ok.', [notes[0]!], ['syntax']).map(c => c.reason)).toEqual(['Capital', undefined])
  })

  it('attributes changes whose notes come out of text order (an attribute\'s segment edited after the text)', () => {
    const notes: EditNote[] = [
      { original: 'libary', replacement: 'library', type: 'grammar', reason: 'Misspelling of library' },
      { original: 'tomorow', replacement: 'tomorrow', type: 'grammar', reason: 'Misspelling of tomorrow' },
      { original: 'their', replacement: 'They', type: 'syntax', reason: 'Capital' }
    ]
    const before = '<a title="their">libary</a> tomorow'
    const after = '<a title="They">library</a> tomorrow'
    const changes = diffChanges(before, after, notes, ['grammar', 'syntax'])
    expect(apply(before, changes)).toBe(after)
    expect(changes.map(c => [c.original, c.type, c.reason])).toEqual([
      ['their', 'syntax', 'Capital'],
      ['libary', 'grammar', 'Misspelling of library'],
      ['tomorow', 'grammar', 'Misspelling of tomorrow']
    ])
  })

  it('gives a change two notes made one after the other the first note\'s type and both reasons', () => {
    const notes: EditNote[] = [
      { original: 'dont', replacement: "don't", type: 'grammar', reason: 'Missing apostrophe' },
      { original: "don't", replacement: "Don't", type: 'syntax', reason: 'Capital' },
      { original: 'thats', replacement: "that's", type: 'grammar', reason: 'Missing apostrophe' },
      { original: "that's", replacement: "That's", type: 'syntax', reason: 'Capital' }
    ]
    const before = 'dont worry. thats fine.'
    const after = "Don't worry. That's fine."
    const changes = diffChanges(before, after, notes, ['grammar', 'syntax'])
    expect(apply(before, changes)).toBe(after)
    expect(changes.map(c => [c.original, c.replacement, c.type, c.reason])).toEqual([
      ['dont', "Don't", 'grammar', 'Missing apostrophe; Capital'],
      ['thats', "That's", 'grammar', 'Missing apostrophe; Capital']
    ])
  })

  it('makes hunks the word diff cut across two notes each note\'s own change again, with its reason', () => {
    const notes: EditNote[] = [
      { original: 'In order to', replacement: 'To', type: 'simplify', reason: 'Wordy: use "to"' },
      { original: 'utilize', replacement: 'use', type: 'simplify', reason: 'Wordy: use "use"' }
    ]
    const before = 'In order to utilize the system, you must log in.'
    const after = 'To use the system, you must log in.'
    const changes = diffChanges(before, after, notes, ['grammar', 'simplify'])
    expect(apply(before, changes)).toBe(after)
    for (const c of changes) expect(slice(before, c.offset, c.length)).toBe(c.original)
    expect(changes.map(c => [c.original, c.replacement, c.type, c.reason])).toEqual([
      ['In order to', 'To', 'simplify', 'Wordy: use "to"'],
      ['utilize', 'use', 'simplify', 'Wordy: use "use"']
    ])
  })

  it('makes each note\'s change where the word diff of the sentence aligned them otherwise ("  phone" deleted and "phone" put back)', () => {
    const space: EditNote = { original: '  ', replacement: ' ', type: 'syntax', reason: 'Extra space between words' }
    const notes: EditNote[] = [
      space,
      { original: ' ,', replacement: ',', type: 'syntax', reason: 'Space before ","' },
      space,
      { original: 'THATS', replacement: "THAT'S", type: 'grammar', reason: 'Missing apostrophe' }
    ]
    const before = 'A great  phone , but  THATS it. A great  phone , but  THATS it.'
    const after = "A great phone, but THAT'S it. A great phone, but THAT'S it."
    const changes = diffChanges(before, after, [...notes, ...notes], ['grammar', 'syntax'])
    expect(apply(before, changes)).toBe(after)
    for (const c of changes) expect(slice(before, c.offset, c.length)).toBe(c.original)
    const once = [
      ['  ', ' ', 'syntax', 'Extra space between words'],
      [' ', '', 'syntax', 'Space before ","'],
      ['  ', ' ', 'syntax', 'Extra space between words'],
      ['THATS', "THAT'S", 'grammar', 'Missing apostrophe']
    ]
    expect(changes.map(c => [c.original, c.replacement, c.type, c.reason])).toEqual([...once, ...once])
    expect(changes.map(c => c.offset)).toEqual([7, 14, 20, 22, 39, 46, 52, 54])
  })

  it('makes each note its own change where the notes applied in turn rebuild a sentence its word diff aligned across words ("  home" deleted, "home" put back, "we" made "didn\'t"), in linear time', () => {
    const sentence = 'We went  home ,didnt we ? '
    const notesOf = (i: number): EditNote[] => [
      { original: '  ', replacement: ' ', type: 'syntax', reason: `Space ${i}` },
      { original: ' ,', replacement: ', ', type: 'syntax', reason: `Comma ${i}` },
      { original: 'didnt', replacement: "didn't", type: 'grammar', reason: `Apostrophe ${i}` },
      { original: ' ?', replacement: '?', type: 'syntax', reason: `Question ${i}` }
    ]
    const timed = (n: number): number => {
      const before = sentence.repeat(n)
      const after = "We went home, didn't we? ".repeat(n)
      const notes = Array.from({ length: n }, (_, i) => notesOf(i)).flat()
      const start = performance.now()
      const changes = diffChanges(before, after, notes, ['grammar', 'syntax'])
      const time = performance.now() - start
      expect(apply(before, changes)).toBe(after)
      expect(changes).toEqual(Array.from({ length: n }, (_, i) => {
        const at = i * sentence.length
        return [
          { offset: at + 7, length: 2, original: '  ', replacement: ' ', type: 'syntax', reason: `Space ${i}` },
          { offset: at + 13, length: 2, original: ' ,', replacement: ', ', type: 'syntax', reason: `Comma ${i}` },
          { offset: at + 15, length: 5, original: 'didnt', replacement: "didn't", type: 'grammar', reason: `Apostrophe ${i}` },
          { offset: at + 23, length: 1, original: ' ', replacement: '', type: 'syntax', reason: `Question ${i}` }
        ]
      }).flat())
      return time
    }
    timed(1)
    const small = timed(400)
    const large = timed(4_000)
    // 10x the sentences: linear is ~10x the time
    expect(large).toBeLessThan(Math.max(small, 1) * 40)
  })

  it('gives a word a note deleted and a note after it changed each note\'s own change ("the the" -> "the" -> "The")', () => {
    const notes: EditNote[] = [
      { original: 'the the', replacement: 'the', type: 'grammar', reason: 'Repeated word "the"' },
      { original: 'the', replacement: 'The', type: 'syntax', reason: 'A sentence starts with a capital letter' }
    ]
    const changes = diffChanges('the the cat sat.', 'The cat sat.', notes, ['grammar', 'syntax'])
    expect(apply('the the cat sat.', changes)).toBe('The cat sat.')
    expect(changes).toEqual([
      { offset: 0, length: 3, original: 'the', replacement: 'The', type: 'syntax', reason: 'A sentence starts with a capital letter' },
      { offset: 3, length: 4, original: ' the', replacement: '', type: 'grammar', reason: 'Repeated word "the"' }
    ])
  })

  it('says "edit" when several edits were asked and nothing says which one made a change', () => {
    expect(diffChanges('a b', 'a c', [], ['tone', 'length'])[0]!.type).toBe('edit')
  })

  it('gives insertions a zero length and deletions an empty replacement', () => {
    expect(diffChanges('a c', 'a b c', [], ['grammar'])).toEqual([{ offset: 2, length: 0, original: '', replacement: 'b ', type: 'grammar' }])
    expect(diffChanges('a b c', 'a c', [], ['grammar'])).toEqual([{ offset: 2, length: 2, original: 'b ', replacement: '', type: 'grammar' }])
  })

  it('falls back to one change over the differing middle when the texts differ too much to diff word by word', () => {
    const before = 'Start. ' + Array.from({ length: 3000 }, (_, i) => `w${i}`).join(' ') + ' End.'
    const after = 'Start. ' + Array.from({ length: 3000 }, (_, i) => `v${i}`).join(' ') + ' End.'
    const changes = diffChanges(before, after, [], ['clarify'])
    expect(changes).toHaveLength(1)
    expect(slice(before, changes[0]!.offset, changes[0]!.length)).toBe(changes[0]!.original)
    expect(changes[0]!.original.startsWith('w0')).toBe(true)
  })

  it('diffs a long text sentence by sentence: an edit of every one of 1,400 sentences gives 1,400 word changes, not one change over the whole', () => {
    const after = Array.from({ length: 1400 }, (_, i) => `Mary 😀 Smith visited Paris on ${1 + i % 28} May and found the hotel ${i % 3 === 0 ? 'terrible' : 'wonderful'}.`).join(' ')
    const before = after.replaceAll('hotel', 'hotle')
    const changes = diffChanges(before, after, [], ['grammar'])
    expect(changes).toHaveLength(1400)
    for (const c of changes) {
      expect([c.original, c.replacement]).toEqual(['hotle', 'hotel'])
      expect(slice(before, c.offset, c.length)).toBe('hotle')
    }
    expect(apply(before, changes)).toBe(after)
  })

  it('aligns sentences removed, added and edited before diffing the words of each edited one', () => {
    const sentences = Array.from({ length: 40 }, (_, i) => `Sentence ${i} is here!`)
    const edited = [...sentences]
    edited[3] = 'Sentence 3 is there!'
    edited.splice(10, 1)
    edited.splice(20, 0, 'A new one.\nAnd a line.')
    edited[30] = 'Sentence 30 is not here!'
    const before = sentences.join(' ')
    const after = edited.join(' ')
    const changes = diffChanges(before, after, [], ['clarify'])
    expect(apply(before, changes)).toBe(after)
    for (const c of changes) expect(slice(before, c.offset, c.length)).toBe(c.original)
    expect(changes.map(c => [c.original.trim(), c.replacement.trim()])).toEqual([
      ['here', 'there'],
      ['Sentence 10 is here!', ''],
      ['', 'A new one.\nAnd a line.'],
      ['', 'not']
    ])
  })

  it('gives a JSON leaf\'s 150,000 changes (more than a call\'s arguments can hold)', () => {
    const changes = changesOf({ leaf: 'a. '.repeat(150_000) }, { leaf: 'b. '.repeat(150_000) }, [], ['grammar'])
    expect(changes).toHaveLength(150_000)
    expect(changes.at(-1)).toEqual({ offset: 3 * 149_999, length: 1, original: 'a', replacement: 'b', type: 'grammar', path: '/leaf' })
  })

  it('gives each leaf of a JSON document of many strings its own notes, in linear time (2,000 strings whose words two notes changed took minutes)', () => {
    /** Leaves whose first word two notes changed in turn, as the rules editor does ("dont" -> "don't" -> "Don't"), its notes after the leaf before's. */
    const documentOf = (n: number): { before: string[], after: string[], notes: EditNote[] } => {
      const before = Array.from({ length: n }, (_, i) => `dont go ${i} . teh end , ok`)
      const after = Array.from({ length: n }, (_, i) => `Don't go ${i}. The end, ok`)
      const notes = before.flatMap((_, i): EditNote[] => [
        { original: 'dont', replacement: "don't", type: 'grammar', reason: `Apostrophe ${i}` },
        { original: "don't", replacement: "Don't", type: 'syntax', reason: `Capital ${i}` },
        { original: ' .', replacement: '.', type: 'syntax', reason: `Space ${i}` },
        { original: 'teh', replacement: 'the', type: 'grammar', reason: `Misspelling ${i}` },
        { original: 'the', replacement: 'The', type: 'syntax', reason: `Capital ${i}` },
        { original: ' ,', replacement: ',', type: 'syntax', reason: `Space ${i}` }
      ])
      return { before, after, notes }
    }
    const timed = (n: number): number => {
      const { before, after, notes } = documentOf(n)
      const start = performance.now()
      const changes = changesOf(before, after, notes, ['grammar', 'syntax'])
      const time = performance.now() - start
      const byLeaf = Map.groupBy(changes, c => c.path)
      for (let i = 0; i < n; i++) {
        const own = byLeaf.get(`/${i}`) ?? []
        expect(apply(before[i]!, own)).toBe(after[i])
        for (const c of own) expect(c.reason?.split('; ').map(reason => reason.split(' ').at(-1)), JSON.stringify(c)).toEqual(expect.arrayContaining([String(i)]))
        expect(own.find(c => c.original === 'dont')?.reason).toBe(`Apostrophe ${i}; Capital ${i}`)
      }
      return time
    }
    timed(100)
    const small = timed(100)
    const large = timed(2_000)
    // 20x the strings: linear is ~20x the time; leaves x notes was ~400x
    expect(large).toBeLessThan(Math.max(small, 1) * 100)
  })

  it('cuts sentences after their end and the spaces that follow, and lines after each line break', () => {
    expect(sentencesOf('One. Two!  Three?\nFour\n\nFive 3.5 e.g.x')).toEqual(['One. ', 'Two!  ', 'Three?\n', 'Four\n\n', 'Five 3.5 e.g.x'])
    expect(sentencesOf('')).toEqual([])
  })

  it('marks the JSON pointer of a leaf and finds nothing in equal strings', () => {
    expect(diffChanges('same', 'same', [], ['grammar'])).toEqual([])
    expect(diffChanges('a x', 'a y', [], ['syntax'], '/items/0')[0]!.path).toBe('/items/0')
  })
})
