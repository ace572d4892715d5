/** Route options shared by every /language operation: scope `access`, both security schemes, declared errors. */
import type { TSchema } from 'typebox'
import { errorResponses } from '../schemas/common.js'

export const SECURITY: Array<Record<string, string[]>> = [{ OAuth2: ['access'] }, { BearerAuth: [] }]

/** Errors every authenticated route can answer, plus the ones named. */
export function securedResponses (ok: Record<number, TSchema>, ...extra: number[]): Record<number, TSchema> {
  return { ...ok, ...errorResponses(400, 401, 403, 429, 500, ...extra) }
}

export const accessConfig = { scope: 'access' } as const
