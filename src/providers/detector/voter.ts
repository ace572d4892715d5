/** One detection library behind a uniform face: its best answer for a text, limited to allowed languages. */
export interface Voter {
  readonly name: string
  /** Every answer this voter can give (canonical tags, or `sh` for Serbo-Croatian). */
  readonly answers: readonly string[]
  /**
   * The voter's best answer, or undefined when it has none. With `allowedBases`, only answers
   * that may stand for one of those base languages count (the voter's best among them).
   */
  top: (text: string, allowedBases?: ReadonlySet<string>) => string | undefined
}
