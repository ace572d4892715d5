/** Entity tags for answers that only change when their body does. */
import { createHash } from 'node:crypto'

/** A strong ETag for a response body: its SHA-256, quoted ("\"…\""). */
export function etagOf (body: string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`
}
