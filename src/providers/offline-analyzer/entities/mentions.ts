import type { EntityType, FoundEntity } from '../../../core/analysis/results.js'
import { codePointOffsets } from '../../../core/code-points.js'
import { determiners, functionWords } from './function-words.js'
import { LEGAL_FORMS } from './organizations.js'
import { resolveOverlaps, type Span } from './spans.js'
import { fold } from './text.js'
import { tokenize, type Token } from './tokens.js'

const NAMED: ReadonlySet<EntityType> = new Set(['PERSON', 'ORGANIZATION', 'LOCATION', 'OTHER', 'EVENT', 'WORK_OF_ART', 'CONSUMER_GOOD'])
const FORMS = new Set(LEGAL_FORMS.map(f => fold(f.replace(/\.$/, ''))))
const SPACES = /^[ \u00a0]{1,2}$/
const LINE_BREAK = /[\n\r\u2028\u2029]/

interface Alias {
  words: string[]
  type: EntityType
  priority: number
}

/** The folded words of a name. */
const wordsOf = (name: string): string[] => tokenize(name).filter(t => t.kind !== 'currency').map(t => t.folded)

/** An organisation's name without its legal form or article ("Apple Inc." → "apple"). */
function organizationCore (words: string[]): string[] {
  let end = words.length
  for (;;) {
    if (end > 1 && FORMS.has(words[end - 1]!)) end--
    // "S.A." is two words, "s" and "a"
    else if (end > 2 && FORMS.has(words.slice(end - 2, end).join('.'))) end -= 2
    else break
  }
  const start = words[0] === 'the' && end > 1 ? 1 : 0
  return words.slice(start, end)
}

/**
 * Spans for later (or earlier) short forms of names found in full: a surname or given name of a
 * person ("Obama" for "Barack Obama"), an organisation without its legal form ("Apple").
 */
function aliasSpans (text: string, tokens: Token[], kept: Span[], taken: Uint8Array, language: string): Span[] {
  const aliases = new Map<string, Alias[]>()
  const small = functionWords(language)
  const add = (words: string[], type: EntityType, priority: number): void => {
    if (words.length === 0 || words.every(w => small.has(w) || w.length < 2)) return
    const list = aliases.get(words[0]!) ?? []
    if (!list.some(a => a.words.join(' ') === words.join(' '))) list.push({ words, type, priority })
    aliases.set(words[0]!, list)
  }
  for (const s of kept) {
    if (s.type !== 'PERSON' && s.type !== 'ORGANIZATION') continue
    const words = wordsOf(text.slice(s.start, s.end))
    if (s.type === 'PERSON' && words.length >= 2) {
      add([words.at(-1)!], 'PERSON', s.priority)
      add([words[0]!], 'PERSON', s.priority)
    } else if (s.type === 'ORGANIZATION') {
      const core = organizationCore(words)
      if (core.length > 0 && core.length < words.length) add(core, 'ORGANIZATION', s.priority)
    }
  }
  if (aliases.size === 0) return []
  const articles = determiners(language)
  const found: Span[] = []
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind !== 'word' || !t.cap || taken[t.start] === 1) continue
    const list = aliases.get(t.folded)
    if (list === undefined) continue
    // "der Bauer" is a farmer, not Mr Bauer
    const previous = tokens[i - 1]
    if (previous !== undefined && articles.has(previous.folded) && SPACES.test(text.slice(previous.end, t.start))) continue
    for (const alias of list) {
      let ok = true
      for (let k = 1; k < alias.words.length && ok; k++) {
        const u = tokens[i + k]
        ok = u !== undefined && u.folded === alias.words[k] && SPACES.test(text.slice(tokens[i + k - 1]!.end, u.start))
      }
      const last = tokens[i + alias.words.length - 1]!
      if (!ok || taken.subarray(t.start, last.end).includes(1)) continue
      found.push({ type: alias.type, start: t.start, end: last.end, priority: alias.priority })
      i += alias.words.length - 1
      break
    }
  }
  return found
}

interface Group {
  type: EntityType
  mentions: Span[]
  words: string[]
}

/**
 * The entities of a text from the spans its finders found: overlaps resolved, short forms of
 * names found again and merged with their full form, offsets in code points.
 */
export function entitiesOf (text: string, tokens: Token[], spans: Span[], language: string): FoundEntity[] {
  // a document's pieces are analysed one a line: nothing found runs from one line into the next
  const { kept, taken } = resolveOverlaps(spans.filter(s => !LINE_BREAK.test(text.slice(s.start, s.end))), text.length)
  // a proper name of no known kind ("la Tour Eiffel") keeps short forms of persons out of its words, but is
  // none of the types the offline analyser gives
  const all = [...kept, ...aliasSpans(text, tokens, kept, taken, language)].filter(s => s.type !== 'OTHER').sort((a, b) => a.start - b.start)

  const groups = new Map<string, Group>()
  for (const s of all) {
    const written = text.slice(s.start, s.end)
    const words = NAMED.has(s.type) ? wordsOf(written) : []
    const key = NAMED.has(s.type) ? `${s.type} ${words.join(' ')}` : `${s.type} ${s.value ?? fold(written)}`
    const group = groups.get(key)
    if (group === undefined) groups.set(key, { type: s.type, mentions: [s], words })
    else group.mentions.push(s)
  }
  mergePersons(groups)
  mergeOrganizations(groups)

  const toPoint = codePointOffsets(text)
  const entities: Array<FoundEntity & { first: number }> = []
  for (const group of groups.values()) {
    if (group.mentions.length === 0) continue
    group.mentions.sort((a, b) => a.start - b.start)
    const mentions = group.mentions.map(m => {
      const offset = toPoint(m.start)
      return { offset, length: toPoint(m.end) - offset, text: text.slice(m.start, m.end), start: m.start }
    })
    // the fullest form names the entity
    const name = mentions.reduce((best, m) => m.text.length > best.length ? m.text : best, mentions[0]!.text)
    const value = group.mentions.find(m => m.value !== undefined)?.value
    entities.push({
      name,
      type: group.type,
      mentions: mentions.map(({ offset, length, text }) => ({ offset, length, text })),
      ...(value === undefined ? {} : { value }),
      first: mentions[0]!.start
    })
  }
  entities.sort((a, b) => a.first - b.first)
  return entities.map(({ first, ...entity }) => entity)
}

/** One-word mentions of a person go to the full name with that first or last word: the nearest before, else the first after. */
function mergePersons (groups: Map<string, Group>): void {
  const full = new Map<string, Group[]>()
  for (const g of groups.values()) {
    if (g.type !== 'PERSON' || g.words.length < 2) continue
    for (const w of new Set([g.words[0]!, g.words.at(-1)!])) full.set(w, [...(full.get(w) ?? []), g])
  }
  for (const g of groups.values()) {
    if (g.type !== 'PERSON' || g.words.length !== 1) continue
    const candidates = full.get(g.words[0]!)
    if (candidates === undefined) continue
    for (const mention of g.mentions.splice(0)) {
      let target: Group | undefined
      let nearest = -1
      for (const c of candidates) {
        for (const m of c.mentions) if (m.start < mention.start && m.start > nearest) { nearest = m.start; target = c }
      }
      target ??= candidates.reduce((a, b) => a.mentions[0]!.start <= b.mentions[0]!.start ? a : b)
      target.mentions.push(mention)
    }
  }
}

/** Organisations with the same name less legal form and article are one ("Apple Inc." and "Apple"). */
function mergeOrganizations (groups: Map<string, Group>): void {
  const byCore = new Map<string, Group>()
  for (const g of groups.values()) {
    if (g.type !== 'ORGANIZATION') continue
    const core = organizationCore(g.words).join(' ')
    const other = byCore.get(core)
    if (other === undefined) { byCore.set(core, g); continue }
    other.mentions.push(...g.mentions.splice(0))
  }
}
