/**
 * How request schemas are compiled into validators: Fastify's own compiler (@fastify/ajv-compiler)
 * with this service's settings, the same on the event loop (app.ts) and on the pool threads that
 * read large bodies (body-tasks.ts), so a body is judged alike wherever it is read.
 */
import { AjvCompiler } from '@fastify/ajv-compiler'

/** What a validator is: true, or false with ajv's errors on the function. */
export type Validator = ((data: unknown) => boolean | Promise<unknown>) & { errors?: unknown[] | null }

export const AJV_OPTIONS = {
  customOptions: {
    // unknown fields are a 400, not silently dropped; no type coercion of JSON bodies
    removeAdditional: false,
    coerceTypes: false,
    useDefaults: false,
    allErrors: true,
    discriminator: true
  },
  plugins: []
} as const

const factory = AjvCompiler()

/** A validator for `schema`, with `external` the schemas added to the app by $id (none are needed for bodies). */
export function compileValidator (schema: unknown, external: Record<string, unknown> = {}, route: { method?: string, url?: string, httpPart?: string } = {}): Validator {
  const build = factory(external as never, { customOptions: { ...AJV_OPTIONS.customOptions }, plugins: [] }) as unknown as (route: { schema: unknown, method?: string, url?: string, httpPart?: string }) => Validator
  return build({ schema, ...route })
}
