/** Offsets and lengths in code points (what the API reports) from JavaScript's UTF-16 ones. */

/**
 * A converter from UTF-16 offsets to code-point offsets for one text. Calls in increasing order cost
 * linear time over the whole text; a smaller offset starts counting again from the beginning.
 */
export function codePointOffsets (text: string): (utf16: number) => number {
  if (!/[\ud800-\udfff]/.test(text)) return utf16 => utf16
  let unit = 0
  let point = 0
  return utf16 => {
    if (utf16 < unit) { unit = 0; point = 0 }
    for (; unit < utf16; unit++) {
      const c = text.charCodeAt(unit)
      // the low half of a pair is the same code point as the high half before it
      if (!(c >= 0xdc00 && c <= 0xdfff && unit > 0 && isHigh(text.charCodeAt(unit - 1)))) point++
    }
    return point
  }
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff

/** Code points in a string (what `Array.from(text).length` counts, without the array). */
export function codePointLength (text: string): number {
  return codePointOffsets(text)(text.length)
}

/** The inverse: a converter from code-point offsets to UTF-16 ones for one text, for increasing offsets. */
export function utf16Offsets (text: string): (points: number) => number {
  let unit = 0
  let point = 0
  return points => {
    for (; point < points && unit < text.length; point++) {
      const c = text.charCodeAt(unit)
      unit += isHigh(c) && unit + 1 < text.length ? 2 : 1
    }
    return unit
  }
}
