import { functionWords } from './function-words.js'
import { PRIORITY, span, type Span } from './spans.js'
import { isAllCaps } from './text.js'
import type { Token } from './tokens.js'

/** Legal forms of companies and associations as written, longest first. */
export const LEGAL_FORMS: readonly string[] = [
  'GmbH & Co. KG', 'GmbH & Co KG', 'S.à r.l.', 'S.A.R.L.', 'S.p.A.', 'S.A.S.', 'S.A.U.', 'S.r.l.', 'S.R.L.', 'L.L.C.', 'S.C.A.', 'e.V.',
  'S.A.', 'S.L.', 'B.V.', 'N.V.', 'Corporation', 'Incorporated', 'Limited', 'Company', 'gGmbH', 'GmbH', 'KGaA', 'SARL', 'BVBA', 'Ltda.',
  'Ltda', 'Lda.', 'Lda', 'Inc.', 'Inc', 'Ltd.', 'Ltd', 'Corp.', 'Corp', 'Co.', 'LLC', 'LLP', 'PLC', 'plc', 'SpA', 'Srl', 'SAS', 'OHG',
  'ASA', 'Oyj', 'A/S', 'S/A', 'AG', 'KG', 'SE', 'SA', 'SL', 'BV', 'NV', 'AB', 'Oy', 'Cie'
].sort((a, b) => b.length - a.length)
const FORM_INITIALS = new Set(LEGAL_FORMS.map(f => f[0]!))

// words that name an organisation when a proper name goes with them ("Banque de France", "Deutsche Bank")
const HEAD_WORDS = new Set(`bank banque banco banca universite universitat universidad universita universidade universiteit university
  ministere ministerium ministerio ministero ministerie ministry partei parti partido partito partij party institut instituto istituto
  instituut institute fondation stiftung fundacion fondazione fundacao stichting foundation association verein asociacion associazione
  associacao vereniging commission kommission comision commissione comissao commissie agence agentur agencia agenzia agentschap agency
  conseil consejo consiglio conselho raad council tribunal gericht corte cour hof court groupe gruppe grupo gruppo groep group
  compagnie compania compagnia companhia maatschappij societe gesellschaft sociedad societa sociedade federation federacion
  federazione federacao federatie verband syndicat gewerkschaft sindicato vakbond academie akademie academia accademia academy
  club klub airlines airways telecom credit`.split(/\s+/))
// particles inside organisation names ("Banque de France", "Ministerio de Economía", "Bank of England")
const NAME_PARTICLES = new Set(['de', 'du', 'des', 'la', 'le', 'l', 'd', 'del', 'della', 'dell', 'dello', 'delle', 'dei', 'degli', 'di', 'da', 'do', 'dos', 'das',
  'of', 'the', 'van', 'voor', 'fur', 'der', 'for'])

const NAME_GAP = /^(?:[ \u00a0]{1,2}|[ \u00a0]?&[ \u00a0]?|-)$/
const isNameWord = (t: Token): boolean => (t.kind === 'word' && (t.cap || isAllCaps(t.text))) || (t.kind === 'number' && t.text.length <= 4)

/** The legal form written at `at` and ending on a word boundary, if any. */
function legalFormAt (text: string, at: number): string | undefined {
  if (!FORM_INITIALS.has(text[at]!)) return undefined
  for (const form of LEGAL_FORMS) {
    if (!text.startsWith(form, at)) continue
    const after = text[at + form.length]
    if (after === undefined || !/[\p{L}\p{N}]/u.test(after)) return form
  }
  return undefined
}

/**
 * Organisations: capitalised words before a legal form ("Siemens AG", "Banco Santander, S.A."),
 * and capitalised names with a word such as "Bank" or "Université" ("Banque de France"). German
 * capitalises every noun, so there a name needs a capitalised adjective before the word ("Deutsche Bank").
 * In English, names a company's role goes with ("the CEO of Apple").
 */
export function findOrganizations (text: string, tokens: Token[], language: string): Span[] {
  const small = functionWords(language)
  const found: Span[] = []
  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind !== 'word') continue
    const form = legalFormAt(text, t.start)
    if (form === undefined) continue
    // the name: up to five capitalised words before the form, maybe with "&" or a comma before it
    let first = i
    for (let j = i - 1; j >= 0 && i - j <= 5; j--) {
      const word = tokens[j]!
      const gapText = text.slice(word.end, tokens[j + 1]!.start)
      // "Apple, Inc." but not "Las Vegas, NV" or "Calgary, AB"
      const comma = j === i - 1 && /^,[ \u00a0]$/.test(gapText) && form !== 'NV' && form !== 'AB'
      if (!(NAME_GAP.test(gapText) || comma) || !isNameWord(word) || small.has(word.folded)) break
      first = j
      if (word.sentenceStart) break
    }
    if (first === i) continue
    const end = t.start + form.length
    found.push(span('ORGANIZATION', tokens[first]!.start, end, PRIORITY.ORGANIZATION))
    while (i + 1 < tokens.length && tokens[i + 1]!.start < end) i++
  }
  if (language !== 'en') found.push(...namedInstitutions(text, tokens, language, small))
  else found.push(...companiesByRole(text, tokens, small))
  return found
}

// what a company has and a person or place has not: "the CEO of Apple", "shareholders of Acme", "Apple's CFO"
// (not "founder": "the founder of Rome")
const COMPANY_ROLES: ReadonlyArray<readonly string[]> = [
  ['ceo'], ['cfo'], ['cto'], ['coo'], ['cio'], ['cmo'], ['chief', 'executive'], ['chief', 'executive', 'officer'], ['chief', 'financial', 'officer'],
  ['chief', 'technology', 'officer'], ['chief', 'operating', 'officer'], ['managing', 'director'], ['chairman'], ['chairwoman'], ['chairperson'],
  ['co-founder'], ['cofounder'], ['shareholders'], ['stockholders'], ['employees'], ['subsidiary'], ['board', 'of', 'directors']
]
// after a name's possessive only the titles: "Musk's employees" are a person's, "Apple's CEO" a company's
const POSSESSIVE_ROLES = COMPANY_ROLES.filter(r => r[0] === 'ceo' || r[0] === 'cfo' || r[0] === 'cto' || r[0] === 'coo' || r[0] === 'cio' ||
  r[0] === 'cmo' || r[0] === 'chief' || r[0] === 'subsidiary' || r[0] === 'board')
const MAX_NAME_WORDS = 4

/** The role written at token `at` (its last token's index), if any. */
function roleAt (tokens: Token[], at: number, text: string, roles: ReadonlyArray<readonly string[]>): number | undefined {
  let best: number | undefined
  for (const role of roles) {
    const last = at + role.length - 1
    if (last >= tokens.length) continue
    let ok = true
    for (let k = 0; k < role.length && ok; k++) {
      ok = tokens[at + k]!.folded === role[k] && (k === 0 || /^[ \u00a0]+$/.test(text.slice(tokens[at + k - 1]!.end, tokens[at + k]!.start)))
    }
    if (ok && (best === undefined || last > best)) best = last
  }
  return best
}

/**
 * English companies named by what only a company has: a capitalised name after "CEO of",
 * "co-founder of", "shareholders of" ("the CEO of Apple", "chairman of the Federal Reserve"), or
 * before "'s CEO" ("Apple's CFO"). A name that is itself a possessive ("CEO of Musk's firm") is the owner's, not the company.
 */
function companiesByRole (text: string, tokens: Token[], small: ReadonlySet<string>): Span[] {
  const found: Span[] = []
  const isName = (t: Token | undefined): t is Token => t !== undefined && isNameWord(t) && !small.has(t.folded)
  const spacedAfter = (j: number): boolean => /^[ \u00a0]{1,2}$/.test(text.slice(tokens[j]!.end, tokens[j + 1]!.start))
  for (let i = 0; i < tokens.length; i++) {
    const role = roleAt(tokens, i, text, COMPANY_ROLES)
    if (role !== undefined && (tokens[role + 1]?.folded === 'of' || tokens[role + 1]?.folded === 'at') && spacedAfter(role)) {
      let first = role + 2
      if (tokens[first]?.folded === 'the' && !tokens[first]!.cap && spacedAfter(role + 1)) first++
      if (first < tokens.length && spacedAfter(first - 1) && isName(tokens[first])) {
        let last = first
        while (last + 1 < tokens.length && last - first + 1 < MAX_NAME_WORDS && !tokens[last + 1]!.sentenceStart &&
          NAME_GAP.test(text.slice(tokens[last]!.end, tokens[last + 1]!.start)) && isName(tokens[last + 1])) last++
        const owner = /^['’]$/.test(text.slice(tokens[last]!.end, tokens[last + 1]?.start ?? text.length)) && tokens[last + 1]?.folded === 's'
        if (!owner) found.push(span('ORGANIZATION', tokens[first]!.start, tokens[last]!.end, PRIORITY.ORGANIZATION))
      }
    }
    // "Apple's CEO": a name, its possessive, a title
    const t = tokens[i]!
    if (isName(t) && tokens[i + 1]?.folded === 's' && /^['’]$/.test(text.slice(t.end, tokens[i + 1]!.start)) && i + 2 < tokens.length &&
      spacedAfter(i + 1) && roleAt(tokens, i + 2, text, POSSESSIVE_ROLES) !== undefined) {
      let first = i
      while (first > 0 && i - first + 1 < MAX_NAME_WORDS && !tokens[first]!.sentenceStart &&
        NAME_GAP.test(text.slice(tokens[first - 1]!.end, tokens[first]!.start)) && isName(tokens[first - 1])) first--
      found.push(span('ORGANIZATION', tokens[first]!.start, t.end, PRIORITY.ORGANIZATION))
    }
  }
  return found
}

const headOf = (t: Token, language: string): boolean => {
  if (t.kind !== 'word' || !t.cap) return false
  if (HEAD_WORDS.has(t.folded)) return true
  // German and Dutch compounds end with the head word ("Zentralbank", "Bundesministerium")
  if (language !== 'de' && language !== 'nl') return false
  for (const head of ['bank', 'ministerium', 'ministerie', 'gericht', 'partei', 'partij', 'institut', 'instituut', 'stiftung', 'verband', 'gesellschaft', 'akademie', 'universitat', 'universiteit']) {
    if (t.folded.endsWith(head)) return true
  }
  return false
}

/**
 * Where the institution in a run of capitalised words (tokens first to last) starts: at its first
 * word, unless a particle comes before its first institution word, which then opens the name after
 * that particle. The words before are a person of it ("Marie Dupont de la Société Générale", "Ana
 * Botín del Banco Santander") or an office ("Président de la Banque Mondiale"), not its name.
 */
function institutionStart (tokens: Token[], first: number, last: number, language: string): number {
  let start = first
  for (let k = first; k <= last; k++) {
    const t = tokens[k]!
    if (t.cap && headOf(t, language)) return start
    if (!t.cap) start = k + 1
  }
  return first
}

/** Capitalised names holding an institution word. */
function namedInstitutions (text: string, tokens: Token[], language: string, small: ReadonlySet<string>): Span[] {
  const found: Span[] = []
  let i = 0
  while (i < tokens.length) {
    const t = tokens[i]!
    if (t.kind !== 'word' || !t.cap || small.has(t.folded)) { i++; continue }
    // a run of capitalised words, with particles inside
    let last = i
    let j = i + 1
    while (j < tokens.length) {
      const u = tokens[j]!
      if (!/^[ \u00a0'’-]{1,2}$/.test(text.slice(tokens[j - 1]!.end, u.start)) || u.sentenceStart) break
      if (u.kind === 'word' && u.cap && !small.has(u.folded)) { last = j; j++; continue }
      if (u.kind === 'word' && NAME_PARTICLES.has(u.folded) && !u.cap) { j++; continue }
      break
    }
    const start = institutionStart(tokens, i, last, language)
    const run = tokens.slice(start, last + 1).filter(u => u.cap)
    const heads = run.filter(u => headOf(u, language))
    let ok = heads.length > 0 && heads.length < run.length
    if (ok && language === 'de') {
      // German: "Deutsche Bank", "Europäische Zentralbank": a capitalised adjective before the head, inside a sentence
      const head = run.findIndex(u => headOf(u, language))
      ok = head > 0 && run.slice(0, head).every(u => /(?:e|er|es|en|sche|ische)$/.test(u.folded)) && !run[0]!.sentenceStart
    }
    if (ok) found.push(span('ORGANIZATION', tokens[start]!.start, tokens[last]!.end, PRIORITY.ORGANIZATION))
    i = last + 1
  }
  return found
}
