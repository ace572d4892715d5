/**
 * Document values held off the event loop: a large request body is parsed on the document runner's
 * threads and its costly values stay there (http/bodies.ts). Core sees a HeldValue in their place
 * (what it is, how costly), hands its `ref` to the runner as it would the value, and gets back JSON
 * text (a JsonFragment) for what it must send.
 */

/** A value of a request body held where the runner works (its `ref` names it there). */
export class HeldValue {
  constructor (
    /** What names the value where it is held; only the runner reads it. */
    readonly ref: unknown,
    /** What the value is (a string, an object or an array). */
    readonly kind: 'string' | 'object' | 'array',
    /** The estimated cost of working on it (cost.ts documentCost). */
    readonly cost: number,
    /** Characters of its string leaves, counted up to a bound (core/text-limit.ts). */
    readonly rawLength: number
  ) {}
}

/** JSON text made where the value is held, to be written into an answer as it is. */
export class JsonFragment {
  constructor (readonly json: string) {}
}
