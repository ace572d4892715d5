/** Response `meta`: the request's own keys come back unchanged; the service adds keys only where the client left them free. */
export function mergeMeta<T extends Record<string, unknown>> (requestMeta: Record<string, string> | undefined, added: T): Record<string, string> & Partial<T> {
  const out: Record<string, unknown> = { ...added }
  if (requestMeta) for (const [k, v] of Object.entries(requestMeta)) out[k] = v
  return out as Record<string, string> & Partial<T>
}
