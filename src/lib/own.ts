/**
 * own(table, key): a plain table's own entry for a key that comes from outside (a language code,
 * a flag, a word of a text), never what Object.prototype lends every object: `table["constructor"]`
 * is a function, and it answered a 400 quoting its source (issue 32, item 8).
 */
export function own<T> (table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}
