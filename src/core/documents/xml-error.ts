/** Where and why saxes found a text not well-formed: its message ("3:14: unclosed tag: p.") read apart, without the final dot; undefined when it names no position. */
export function xmlErrorAt (message: string): { line: string, column: string, reason: string } | undefined {
  const m = /^(\d+):(\d+): (.*?)\.?$/s.exec(message)
  return m === null ? undefined : { line: m[1]!, column: m[2]!, reason: m[3]! }
}
