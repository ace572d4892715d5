/** English contractions written without their apostrophe ("isnt" -> "isn't"), where the bare form is no word of its own. */
import { matchCase, type Change, type Token } from './text.js'

// left out: forms that are words too ("wont", "cant", "lets", "its", "ill", "well", "were", "shell",
// "hell", "wed", "id", "hes"), and "im"/"ive" (initialisms, names)
const CONTRACTIONS = new Map<string, string>([
  ['isnt', "isn't"], ['arent', "aren't"], ['wasnt', "wasn't"], ['werent', "weren't"], ['dont', "don't"],
  ['doesnt', "doesn't"], ['didnt', "didn't"], ['couldnt', "couldn't"], ['shouldnt', "shouldn't"],
  ['wouldnt', "wouldn't"], ['hasnt', "hasn't"], ['havent', "haven't"], ['hadnt', "hadn't"], ['mustnt', "mustn't"],
  ['neednt', "needn't"], ['mightnt', "mightn't"], ['aint', "ain't"], ['youre', "you're"], ['theyre', "they're"],
  ['thats', "that's"], ['whats', "what's"], ['wheres', "where's"], ['theres', "there's"], ['heres', "here's"],
  ['shes', "she's"], ['whos', "who's"], ['youve', "you've"], ['weve', "we've"], ['theyve', "they've"],
  ['youll', "you'll"], ['theyll', "they'll"], ['youd', "you'd"], ['theyd', "they'd"], ['shouldve', "should've"],
  ['couldve', "could've"], ['wouldve', "would've"], ['mightve', "might've"], ['mustve', "must've"]
])

/** Changes putting the apostrophe back into contractions; `apostrophe` is the one the text writes (' or ’). */
export function contractionChanges (tokens: readonly Token[], apostrophe: string): Change[] {
  const changes: Change[] = []
  for (const t of tokens) {
    if (t.kind !== 'word' || t.guarded) continue
    const full = CONTRACTIONS.get(t.text.toLowerCase())
    if (full === undefined) continue
    // "DONT" -> "DON'T", "Isnt" -> "Isn't"; a capital inside ("ThatS") is a name or code
    if (!/^\p{Lu}?\p{Ll}+$|^\p{Lu}+$/u.test(t.text)) continue
    const replacement = matchCase(t.text, full).replaceAll("'", apostrophe)
    changes.push({ start: t.start, end: t.end, replacement, note: { original: t.text, replacement, type: 'grammar', reason: `Missing apostrophe: "${replacement}"` } })
  }
  return changes
}
