/**
 * English grammar rules on tokens: their/there/they're, its/it's, your/you're, "should of", a/an.
 * Parts of speech come from the en_US Hunspell flags of dictionary-en (M: possessive, so a noun;
 * S: plural or third person; G: -ing; D: -ed), read through the spell checker.
 */
import { articleFor } from './articles.js'
import type { SpellChecker } from '../../lib/hunspell/index.js'
import { matchCase, nextWord, previousWord, type Change, type Token } from './text.js'

/** What the rules ask of the English dictionary. */
export interface EnglishLexicon {
  /** A plural noun formed with -s ("books"), with its stem. */
  pluralNounStem: (word: string) => string | undefined
  /** A dictionary noun that is not also a verb ("car" is, "book" is not). */
  isOnlyNoun: (word: string) => boolean
  /** A dictionary noun, maybe also a verb, but not an adjective ("tail" is, "cold" is not: it takes -er, -est, -ly or -ness). */
  isNoun: (word: string) => boolean
  /** A verb's -ing form that is not also a dictionary noun of its own ("studying", not "meeting"). */
  isPlainIng: (word: string) => boolean
  /** A verb's regular past participle ("walked"). */
  isRegularParticiple: (word: string) => boolean
}

/** The lexicon over the English checker; answers are memoised (bounded). */
export function createEnglishLexicon (speller: SpellChecker): EnglishLexicon {
  const memo = new Map<string, boolean | string | undefined>()
  const remember = <T extends boolean | string | undefined>(key: string, compute: () => T): T => {
    if (memo.has(key)) return memo.get(key) as T
    if (memo.size > 20_000) memo.clear()
    const value = compute()
    memo.set(key, value)
    return value
  }
  const entries = (word: string): string[][] => speller.stemFlags(word) ?? []
  return {
    pluralNounStem: word => remember('p' + word, () => speller.roots(word).find(r => r.suffix?.flag === 'S' && r.flags.includes('M'))?.stem),
    isOnlyNoun: word => remember('n' + word, () => {
      const list = entries(word)
      return list.length > 0 && list.every(f => f.includes('M') && !f.includes('G') && !f.includes('D'))
    }),
    isNoun: word => remember('m' + word, () => {
      const list = entries(word)
      return list.some(f => f.includes('M')) && !list.some(f => f.includes('R') || f.includes('T') || f.includes('Y') || f.includes('P'))
    }),
    isPlainIng: word => remember('g' + word, () => word.endsWith('ing') && speller.stemFlags(word) === undefined &&
      speller.roots(word).some(r => r.suffix?.flag === 'G')),
    isRegularParticiple: word => remember('d' + word, () => word.endsWith('ed') && (speller.roots(word).some(r => r.suffix?.flag === 'D') ||
      // the dictionary lists doubled-consonant forms as words of their own ("wagged", "stopped")
      (word.length >= 6 && word[word.length - 3] === word[word.length - 4] && speller.stemFlags(word) !== undefined && speller.stemFlags(word.slice(0, -3)) !== undefined)))
  }
}

const BE = new Set(['is', 'are', 'was', 'were'])
// after these, "there" is a place or the "is there" of a question: never "their"
const THERE_STAYS_AFTER = new Set([
  ...BE, "isn't", "aren't", "wasn't", "weren't", 'be', 'been', 'being', 'will', 'would', 'can', 'could', 'should',
  'may', 'might', 'must', 'over', 'out', 'in', 'up', 'down', 'from', 'to', 'near', 'right', 'back', 'here', 'and',
  'or', 'get', 'got', 'go', 'went', 'gone', 'going', 'goes', 'stay', 'stayed', 'live', 'lived', 'lives', 'stays',
  'sit', 'sat', 'put', 'there', 'then', 'not'
])
// "there" + these is the expletive or a place ("there remain questions", "got there first")
const THERE_VERBS = new Set([
  'go', 'come', 'stand', 'lie', 'remain', 'exist', 'follow', 'seem', 'appear', 'live', 'sit', 'run', 'hang', 'rest',
  'arise', 'stem', 'loom', 'await', 'emerge', 'lay', 'walk', 'grow', 'rise', 'reign', 'occur', 'ensue', 'prevail',
  'lurk', 'dwell', 'sleep', 'begin', 'end', 'lead', 'wait'
])
const NOT_NOUNS_AFTER_THERE = new Set([
  ...BE, 'be', 'been', 'being', 'will', 'would', 'can', 'could', 'should', 'may', 'might', 'must', 'has', 'have',
  'had', 'do', 'does', 'did', 'seems', 'appears', 'used', 'and', 'or', 'but', 'so', 'if', 'as', 'in', 'on', 'at',
  'today', 'tomorrow', 'tonight', 'yesterday', 'home', 'now', 'then', 'first', 'last', 'next', 'once', 'twice',
  'alone', 'often', 'early', 'late', 'soon', 'again', 'anyway', 'too', 'daily', 'weekly', 'yearly', 'overnight',
  'already', 'instead', 'anymore', 'somewhere', 'everywhere', 'nowhere', 'anywhere', 'there', 'here', 'sir',
  'madam', 'mister', 'everyone', 'everybody', 'nobody', 'somebody', 'anybody', 'someone', 'anyone', 'none'
])
// words that carry on a verb phrase after an -ing form: "they're going to", "you're doing it"
const CONTINUATION = new Set([
  'to', 'a', 'an', 'the', 'with', 'at', 'in', 'on', 'for', 'out', 'up', 'down', 'off', 'over', 'back', 'home',
  'away', 'around', 'it', 'me', 'you', 'him', 'her', 'us', 'them', 'this', 'that', 'these', 'those', 'my', 'your',
  'his', 'our', 'their', 'some', 'well', 'so', 'too', 'now', 'soon', 'today', 'tomorrow', 'tonight', 'later',
  'again', 'really', 'all', 'there', 'here', 'together', 'fine', 'great'
])
// -ing forms that are also dictionary nouns but, right after their/your/its, are nearly always the verb
const ING_VERBS = new Set([
  'going', 'coming', 'doing', 'getting', 'trying', 'having', 'making', 'taking', 'leaving', 'running', 'working',
  'looking', 'waiting', 'playing', 'eating', 'thinking', 'talking', 'moving', 'staying', 'driving', 'walking',
  'sitting', 'saying', 'telling', 'giving', 'helping', 'starting', 'planning', 'hoping', 'buying', 'selling'
])
const PREPOSITIONS = new Set(['of', 'with', 'in', 'on', 'for', 'from', 'by', 'into', 'onto', 'about', 'at', 'under', 'over', 'through', 'to', 'without'])
const MODALS = new Set(['should', 'could', 'would', 'must', 'might', 'may', "shouldn't", "couldn't", "wouldn't", "mustn't", "mightn't"])
const PARTICIPLES = new Set([
  'been', 'gone', 'done', 'had', 'seen', 'known', 'made', 'said', 'got', 'gotten', 'taken', 'given', 'thought',
  'told', 'come', 'become', 'went', 'run', 'brought', 'bought', 'left', 'lost', 'found', 'kept', 'felt', 'heard',
  'held', 'meant', 'met', 'paid', 'put', 'read', 'sent', 'set', 'spent', 'stood', 'understood', 'won', 'written',
  'eaten', 'fallen', 'forgotten', 'broken', 'chosen', 'driven', 'flown', 'grown', 'hidden', 'ridden', 'risen',
  'shown', 'spoken', 'stolen', 'thrown', 'worn', 'let', 'hit', 'cut', 'quit', 'hurt', 'saw', 'did', 'ate', 'took'
])

type Fix = [replacement: string, reason: string]

/** Changes for the English grammar rules in `tokens`; `apostrophe` is the one the text writes (' or ’). */
export function englishGrammar (tokens: readonly Token[], lexicon: EnglishLexicon, apostrophe: string): Change[] {
  const changes: Change[] = []
  const list = tokens as Token[]
  const lower = (i: number | undefined): string | undefined => i === undefined ? undefined : list[i]!.text.toLowerCase().replaceAll('’', "'")
  const isLowercase = (i: number | undefined): boolean => i !== undefined && list[i]!.text === list[i]!.text.toLowerCase()

  /** An -ing verb at `i` that goes on like a verb phrase ("going to", "doing it"). */
  const progressive = (i: number | undefined): boolean => {
    const w = lower(i)
    if (i === undefined || w === undefined || !isLowercase(i) || !(ING_VERBS.has(w) || lexicon.isPlainIng(w))) return false
    const after = lower(nextWord(list, i))
    return after !== undefined && CONTINUATION.has(after)
  }
  /** A noun at `i` that "there" cannot stand before. */
  const nounAfterThere = (i: number | undefined): boolean => {
    const w = lower(i)
    if (w === undefined || !isLowercase(i) || NOT_NOUNS_AFTER_THERE.has(w)) return false
    const stem = lexicon.pluralNounStem(w)
    if (stem !== undefined) return !THERE_VERBS.has(stem)
    return lexicon.isOnlyNoun(w) && !THERE_VERBS.has(w)
  }
  const nounLike = (i: number | undefined): boolean => {
    const w = lower(i)
    return w !== undefined && isLowercase(i) && !NOT_NOUNS_AFTER_THERE.has(w) && (lexicon.pluralNounStem(w) !== undefined || lexicon.isNoun(w))
  }

  for (let i = 0; i < list.length; i++) {
    const t = list[i]!
    if (t.kind !== 'word' || t.guarded) continue
    const w = t.text.toLowerCase().replaceAll('’', "'")
    if (w.length > 7) continue
    const n = nextWord(list, i)
    const next = lower(n)
    const prev = lower(previousWord(list, i))
    let fix: Fix | undefined
    switch (w) {
      case 'their':
        if (next !== undefined && BE.has(next)) fix = ['there', `"there ${next}", not "their ${next}"`]
        else if ((next === 'a' || next === 'an') && prev !== undefined && BE.has(prev)) fix = ['there', `"${prev} there ${next}": "there", not "their"`]
        else if (next === 'a' || next === 'an' || next === 'not') fix = ["they're", `"they're" (they are) before "${next}"`]
        else if (progressive(n)) fix = ["they're", `"they're" (they are) before the verb "${next!}"`]
        break
      case 'there':
        if (prev !== undefined && THERE_STAYS_AFTER.has(prev)) break
        if (progressive(n)) fix = ["they're", `"they're" (they are) before the verb "${next!}"`]
        else if (nounAfterThere(n)) fix = ['their', `"their" (belonging to them) before the noun "${next!}"`]
        break
      case "they're":
        if (next === 'is' || next === 'was' || next === 'are' || next === 'were') fix = ['there', `"there ${next}", not "they're ${next}"`]
        break
      case 'its':
        if (next === 'not' || next === 'been' || next === 'a' || next === 'an' || next === 'the') fix = ["it's", `"it's" (it is/has) before "${next}"`]
        else if (progressive(n)) fix = ["it's", `"it's" (it is) before the verb "${next!}"`]
        break
      case "it's": {
        // "of it's own", "wagged it's tail": after a preposition or a past-tense verb, before a noun
        const owner = prev !== undefined && (PREPOSITIONS.has(prev) || lexicon.isRegularParticiple(prev))
        if (next === 'own' || (owner && nounLike(n))) fix = ['its', `"its" (belonging to it) before "${next!}"`]
        break
      }
      case 'your':
        if (next === 'not' || next === 'a' || next === 'an' || next === 'the') fix = ["you're", `"you're" (you are) before "${next}"`]
        else if (next === 'welcome' && n !== undefined && list[n + 1]?.kind !== 'space') fix = ["you're", '"you\'re welcome" (you are)']
        else if (progressive(n)) fix = ["you're", `"you're" (you are) before the verb "${next!}"`]
        break
      case "you're":
        if (next === 'own' || (prev !== undefined && PREPOSITIONS.has(prev) && nounLike(n))) fix = ['your', `"your" (belonging to you) before "${next!}"`]
        break
      case 'of': {
        if (prev === undefined || !MODALS.has(prev) || next === undefined || next === 'course') break
        if (PARTICIPLES.has(next) || lexicon.isRegularParticiple(next)) fix = ['have', `"${prev} have", not "${prev} of"`]
        break
      }
      case 'a':
      case 'an':
        fix = articleFix(list, i, n)
        break
    }
    if (fix !== undefined) {
      const replacement = matchCase(t.text, fix[0]).replaceAll("'", apostrophe)
      if (replacement !== t.text) {
        changes.push({ start: t.start, end: t.end, replacement, note: { original: t.text, replacement, type: 'grammar', reason: fix[1] } })
      }
    }
  }
  return changes
}

/** "a" or "an" by the sound of the next word. */
function articleFix (tokens: Token[], i: number, n: number | undefined): Fix | undefined {
  const t = tokens[i]!
  if (n === undefined || tokens[n]!.guarded) return undefined
  const following = tokens[n]!.text
  // "Station A equals": a capital A mid-sentence is a letter; so is "a" in "a and b"
  if (t.text === 'A' && !t.sentenceStart) return undefined
  if (/^(and|or|nor)$/i.test(following)) return undefined
  // "a a test", "an an apple": an article written twice, which the repeated-word rule takes out (not "an a test")
  if (/^(a|an)$/i.test(following)) return undefined
  const expected = articleFor(following)
  const actual = t.text.toLowerCase()
  if (expected === undefined || expected === actual) return undefined
  return [expected, expected === 'an' ? `"an" before the vowel sound of "${following}"` : `"a" before the consonant sound of "${following}"`]
}
