import nspell from 'nspell'
import dictionaryEn from 'dictionary-en'
import { describe, expect, it } from 'vitest'
import { createSpellChecker } from '../../../../src/lib/hunspell/index.js'

describe('hunspell checker', () => {
  it('reads long flags, two suffixes, prefix with suffix, circumfix, needaffix, forbidden words and ICONV', async () => {
    const aff = [
      'SET UTF-8', 'FLAG long', 'TRY abcdefghijklmnopqrstuvwxyz', 'NEEDAFFIX Nn', 'FORBIDDENWORD Fb', 'CIRCUMFIX Cx', 'ICONV 1', 'ICONV ’ \'',
      'SFX Aa Y 2', 'SFX Aa 0 s/Bb [^s]', 'SFX Aa y ies [^aeiou]y',
      'SFX Bb Y 1', 'SFX Bb 0 \'s .',
      'PFX Un Y 1', 'PFX Un 0 un .',
      'PFX Ge Y 1', 'PFX Ge 0 ge/Cx .',
      'SFX Tt Y 1', 'SFX Tt 0 t/Cx .'
    ].join('\n')
    const dic = ['7', 'hat/Aa', 'cat/Aa', 'pony/Aa', 'do/UnAa', 'spiel/GeTt', 'bound/NnAa', 'cats/Fb', "o'clock"].join('\n')
    const checker = await createSpellChecker(aff, dic)
    const yes = ['cat', 'pony', 'ponies', "hats's", 'undo', 'undos', 'gespielt', 'bounds', 'o’clock']
    const no = ['cats', "hat's", 'gespiel', 'spielt', 'bound', 'dog', 'unpony']
    for (const w of yes) expect(checker.correct(w), w).toBe(true)
    for (const w of no) expect(checker.correct(w), w).toBe(false)
    expect(checker.roots('ponies')).toEqual([{ stem: 'pony', flags: ['Aa'], suffix: { add: 'ies', flag: 'Aa' } }])
    expect(checker.suggest('pnoy').map(s => s.word)).toEqual(['pony'])
    expect(checker.suggest('pnoy')[0]!.strong).toBe(true)
  })

  it('keeps a stem listed twice with both flag sets, in the file\'s order, and tells stems from their prefixes and longer words', async () => {
    const aff = ['SFX A Y 1', 'SFX A 0 s .', 'SFX B Y 1', 'SFX B 0 ed .'].join('\n')
    const words = Array.from({ length: 2000 }, (_, i) => `word${i}/A`)
    const dic = ['2004', 'walk/A', ...words, 'walk/B', 'walker', 'wal/B'].join('\n')
    const checker = await createSpellChecker(aff, dic)
    expect(checker.stemFlags('walk')).toEqual([['A'], ['B']])
    expect(checker.stemFlags('walker')).toEqual([[]])
    expect(checker.stemFlags('wa')).toBeUndefined()
    expect(checker.stemFlags('walke')).toBeUndefined()
    for (const w of ['walks', 'walked', 'walker', 'waled', 'word0s', 'word1999']) expect(checker.correct(w), w).toBe(true)
    for (const w of ['walkers', 'wals', 'word2000', 'walk\nwalker']) expect(checker.correct(w), w).toBe(false)
  })

  it('finds stems of chars past Latin-1 (kept apart from the others) among Latin-1 ones, homonyms in the file\'s order', async () => {
    const aff = ['SFX A Y 1', 'SFX A 0 s .', 'SFX B Y 1', 'SFX B 0 en .'].join('\n')
    const dic = ['7', '€5-biljet/A', 'café/A', 'cĳfer/A', 'cĳfer/B', 'bĳ', 'bi', 'été/B'].join('\n')
    const checker = await createSpellChecker(aff, dic)
    expect(checker.stemFlags('cĳfer')).toEqual([['A'], ['B']])
    expect(checker.stemFlags('été')).toEqual([['B']])
    for (const w of ['€5-biljets', 'cafés', 'cĳfers', 'cĳferen', 'bĳ', 'bi', 'étéen']) expect(checker.correct(w), w).toBe(true)
    for (const w of ['€5-biljet\ncafé', 'cĳfer\nbĳ', 'cĳfe', 'bĳs', 'b', 'étés', 'cafe']) expect(checker.correct(w), w).toBe(false)
  })

  it('answers for a dictionary built on another with the same .aff as for it built alone: stems added, dropped, flagged otherwise, homonyms', async () => {
    const aff = ['SFX A Y 1', 'SFX A 0 s .', 'SFX B Y 1', 'SFX B 0 ed .'].join('\n')
    const base = await createSpellChecker(aff, ['5', 'color/A', 'walk/A', 'walk/B', 'talk/A', 'jump/A'].join('\n'))
    const dic = ['5', 'colour/A', 'walk/B', 'walk/A', 'talk/A', 'talk/B', 'jump/A'].join('\n')
    const alone = await createSpellChecker(aff, dic)
    const variant = await createSpellChecker(aff, dic, base)
    const otherAff = await createSpellChecker(aff + '\n', dic, base)
    const words = ['color', 'colors', 'colour', 'colours', 'walk', 'walks', 'walked', 'talk', 'talks', 'talked', 'jump', 'jumps', 'jumped']
    for (const checker of [variant, otherAff]) {
      for (const w of words) {
        expect(checker.correct(w), w).toBe(alone.correct(w))
        expect(checker.stemFlags(w), w).toEqual(alone.stemFlags(w))
      }
    }
    expect(variant.stemFlags('walk')).toEqual([['B'], ['A']])
    expect(variant.correct('colors')).toBe(false)
    expect(base.correct('colors')).toBe(true)
  })

  it('accepts every form nspell expands from dictionary-en (but its compound-rule ordinals)', async () => {
    const { createDictionaries } = await import('../../../../src/providers/rules-editor/dictionaries.js')
    const ours = (await createDictionaries().speller('en')).checker
    // nspell keeps every expanded form as a key of its (untyped) `data`
    const spell = nspell(Buffer.from(dictionaryEn.aff), Buffer.from(dictionaryEn.dic))
    const expanded = Object.keys((spell as unknown as { data: Record<string, unknown> }).data)
    expect(expanded.length).toBeGreaterThan(100_000)
    const missed = expanded.filter(w => !ours.correct(w))
    expect(missed.filter(w => !/^\d/.test(w))).toEqual([])
    for (const wrong of ['libary', 'tomorow', 'recieve', 'teh', 'definately']) expect(ours.correct(wrong), wrong).toBe(false)
  })
})
