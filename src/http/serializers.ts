/**
 * How response schemas are compiled into serializers: Fastify's own compiler
 * (@fastify/fast-json-stringify-compiler), with one serializer per distinct schema instead of one
 * per route and status. Every route declares the same problem+json errors; compiled anew for each
 * they held ~5 MB of the event loop's heap (docs/benchmarks.md, "Where the memory is now").
 */
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type Factory = ReturnType<typeof SerializerSelector>
type Build = ReturnType<Factory>
type Route = Parameters<Build>[0]

/** A serializer factory for Fastify's `schemaController.compilersFactory.buildSerializer`. */
export function sharedSerializers (): Factory {
  const factory = SerializerSelector()
  return (externalSchemas, serializerOptions) => {
    const build = factory(externalSchemas, serializerOptions)
    // per factory call: the same external schemas and options, so equal schemas serialize alike
    const compiled = new Map<string, ReturnType<Build>>()
    return (route: Route) => {
      const key = JSON.stringify(route.schema)
      let serializer = compiled.get(key)
      if (serializer === undefined) compiled.set(key, serializer = build(route))
      return serializer
    }
  }
}
