/** Where the service writes a key of its own that the client's `meta` already uses. */
export const SERVICE_PREFIX = 'service_'

/**
 * Response `meta`: the request's own keys come back unchanged (docs/api.md "Requests and answers"), and the service's keys are
 * added beside them. A service key the client already sent is never overwritten nor dropped: it is
 * written as `service_<key>` (prefixed again while the client uses that name too), so a client's
 * `meta.language` stays theirs and the detected language is `meta.service_language`.
 */
export function mergeMeta<T extends Record<string, unknown>> (requestMeta: Record<string, string> | undefined, added: T): Record<string, string> & Partial<T> {
  const out: Record<string, unknown> = { ...requestMeta }
  for (const [key, value] of Object.entries(added)) {
    let name = key
    while (Object.hasOwn(out, name)) name = SERVICE_PREFIX + name
    out[name] = value
  }
  return out as Record<string, string> & Partial<T>
}
