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
  club klub airlines airways telecom`.split(/\s+/))
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
    const run = tokens.slice(i, last + 1).filter(u => u.cap)
    const heads = run.filter(u => headOf(u, language))
    let ok = heads.length > 0 && heads.length < run.length
    if (ok && language === 'de') {
      // German: "Deutsche Bank", "Europäische Zentralbank": a capitalised adjective before the head, inside a sentence
      const head = run.findIndex(u => headOf(u, language))
      ok = head > 0 && run.slice(0, head).every(u => /(?:e|er|es|en|sche|ische)$/.test(u.folded)) && !run[0]!.sentenceStart
    }
    if (ok) found.push(span('ORGANIZATION', t.start, tokens[last]!.end, PRIORITY.ORGANIZATION))
    i = last + 1
  }
  return found
}
