/** Unicode scripts of letters, by code-point ranges: what a text's writing system says about its language. */

/** ISO 15924 codes of the scripts told apart; index 0 is "not a letter". */
export const SCRIPTS = ['', 'Latn', 'Cyrl', 'Grek', 'Armn', 'Hebr', 'Arab', 'Deva', 'Beng', 'Guru', 'Gujr', 'Orya',
  'Taml', 'Telu', 'Knda', 'Mlym', 'Sinh', 'Thai', 'Laoo', 'Tibt', 'Mymr', 'Geor', 'Hang', 'Ethi', 'Khmr',
  'Hira', 'Kana', 'Hani', 'Thaa', 'Syrc', 'Cher', 'Cans', 'Mong', 'Tfng'] as const
export type Script = typeof SCRIPTS[number]

const RANGES: Array<[number, number, Script]> = [
  [0x41, 0x5a, 'Latn'], [0x61, 0x7a, 'Latn'], [0xaa, 0xaa, 'Latn'], [0xba, 0xba, 'Latn'], [0xc0, 0xd6, 'Latn'],
  [0xd8, 0xf6, 'Latn'], [0xf8, 0x24f, 'Latn'], [0x250, 0x2af, 'Latn'], [0x1e00, 0x1eff, 'Latn'], [0x2c60, 0x2c7f, 'Latn'],
  [0xa720, 0xa7ff, 'Latn'], [0xff21, 0xff3a, 'Latn'], [0xff41, 0xff5a, 'Latn'],
  [0x370, 0x373, 'Grek'], [0x376, 0x377, 'Grek'], [0x37b, 0x37d, 'Grek'], [0x386, 0x386, 'Grek'], [0x388, 0x3ff, 'Grek'], [0x1f00, 0x1fff, 'Grek'],
  [0x400, 0x481, 'Cyrl'], [0x48a, 0x52f, 'Cyrl'], [0x1c80, 0x1c8f, 'Cyrl'], [0xa640, 0xa69f, 'Cyrl'],
  [0x531, 0x58f, 'Armn'], [0xfb13, 0xfb17, 'Armn'],
  [0x5d0, 0x5f4, 'Hebr'], [0xfb1d, 0xfb4f, 'Hebr'],
  [0x620, 0x64a, 'Arab'], [0x66e, 0x6d3, 'Arab'], [0x6d5, 0x6d5, 'Arab'], [0x6fa, 0x6ff, 'Arab'], [0x750, 0x77f, 'Arab'],
  [0x8a0, 0x8ff, 'Arab'], [0xfb50, 0xfdff, 'Arab'], [0xfe70, 0xfeff, 'Arab'],
  [0x700, 0x74f, 'Syrc'], [0x780, 0x7bf, 'Thaa'],
  [0x900, 0x97f, 'Deva'], [0x980, 0x9ff, 'Beng'], [0xa00, 0xa7f, 'Guru'], [0xa80, 0xaff, 'Gujr'], [0xb00, 0xb7f, 'Orya'],
  [0xb80, 0xbff, 'Taml'], [0xc00, 0xc7f, 'Telu'], [0xc80, 0xcff, 'Knda'], [0xd00, 0xd7f, 'Mlym'], [0xd80, 0xdff, 'Sinh'],
  [0xe01, 0xe3a, 'Thai'], [0xe40, 0xe4e, 'Thai'], [0xe80, 0xeff, 'Laoo'], [0xf00, 0xfff, 'Tibt'], [0x1000, 0x109f, 'Mymr'],
  [0x10a0, 0x10ff, 'Geor'], [0x1c90, 0x1cbf, 'Geor'], [0x2d00, 0x2d2f, 'Geor'],
  [0x1100, 0x11ff, 'Hang'], [0x3130, 0x318f, 'Hang'], [0xa960, 0xa97f, 'Hang'], [0xac00, 0xd7af, 'Hang'], [0xd7b0, 0xd7ff, 'Hang'],
  [0x1200, 0x139f, 'Ethi'], [0x13a0, 0x13ff, 'Cher'], [0x1400, 0x167f, 'Cans'], [0x1780, 0x17ff, 'Khmr'], [0x1800, 0x18af, 'Mong'],
  [0x2d30, 0x2d7f, 'Tfng'],
  [0x3041, 0x3096, 'Hira'], [0x309d, 0x309f, 'Hira'], [0x30a1, 0x30fa, 'Kana'], [0x30fc, 0x30ff, 'Kana'], [0x31f0, 0x31ff, 'Kana'],
  [0xff66, 0xff9d, 'Kana'],
  [0x3400, 0x4dbf, 'Hani'], [0x4e00, 0x9fff, 'Hani'], [0xf900, 0xfaff, 'Hani']
]

// one byte per BMP code point: O(1) lookups on the hot path
const BMP = new Uint8Array(0x10000)
for (const [start, end, script] of RANGES) BMP.fill(SCRIPTS.indexOf(script), start, end + 1)
const HANI = SCRIPTS.indexOf('Hani')

/** The script index (into SCRIPTS) of a code point; 0 when it is not a letter of a known script. */
export function scriptIndexOf (codePoint: number): number {
  if (codePoint < 0x10000) return BMP[codePoint] ?? 0
  // CJK extension planes
  return codePoint >= 0x20000 && codePoint < 0x3134f ? HANI : 0
}

/** Letter counts of a text per script, and its length in code points. */
export interface ScriptProfile {
  /** counts[i] is the number of letters of SCRIPTS[i]. */
  counts: Uint32Array
  letters: number
  codePoints: number
}

/** Counts the letters of each script in `text`, reusing `into` when given. */
export function scriptProfile (text: string, into?: ScriptProfile): ScriptProfile {
  const profile = into ?? { counts: new Uint32Array(SCRIPTS.length), letters: 0, codePoints: 0 }
  profile.counts.fill(0)
  let letters = 0
  let codePoints = 0
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i)
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < text.length) {
      c = 0x10000 + ((c - 0xd800) << 10) + (text.charCodeAt(++i) - 0xdc00)
    }
    codePoints++
    const s = scriptIndexOf(c)
    if (s !== 0) {
      profile.counts[s]!++
      letters++
    }
  }
  profile.letters = letters
  profile.codePoints = codePoints
  return profile
}

/** How much one letter of a script tells: a CJK character carries about a word, a Latin letter a fraction. */
const WEIGHT = new Float64Array(SCRIPTS.length).fill(1)
for (const s of ['Hani', 'Hira', 'Kana', 'Hang'] as const) WEIGHT[SCRIPTS.indexOf(s)] = 3

/**
 * The writing system a text is in: 'Jpan' when it has kana, 'Kore' when it has Hangul, else the
 * script with the most (weighted) letters; '' for a text without letters.
 */
export function dominantScript (profile: ScriptProfile): string {
  const c = profile.counts
  const hani = c[HANI]!
  const kana = c[SCRIPTS.indexOf('Hira')]! + c[SCRIPTS.indexOf('Kana')]!
  const hangul = c[SCRIPTS.indexOf('Hang')]!
  let best = 0
  let bestWeight = 0
  for (let i = 1; i < c.length; i++) {
    const w = c[i]! * WEIGHT[i]!
    if (w > bestWeight) {
      best = i
      bestWeight = w
    }
  }
  const name = SCRIPTS[best]!
  if (name === 'Hani' || name === 'Hira' || name === 'Kana' || name === 'Hang') {
    if (kana > 0 && kana >= hangul) return 'Jpan'
    if (hangul > 0) return 'Kore'
    return hani > 0 ? 'Hani' : name
  }
  return name
}
