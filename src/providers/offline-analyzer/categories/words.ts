/** The words of a text, lower case without accents ("Fußball-WM" → "fussball", "wm"). */
export function foldedWords (text: string): string[] {
  // eslint-disable-next-line no-control-regex
  const plain = /[^\x00-\x7f]/.test(text)
    ? text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().replace(/ß/g, 'ss').replace(/œ/g, 'oe').replace(/æ/g, 'ae')
    : text.toLowerCase()
  return plain.match(/[\p{L}\p{N}]+/gu) ?? []
}
