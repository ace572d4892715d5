/** The xliff package (no types of its own), as the XLIFF tests use it to read outputs back. */
declare module 'xliff' {
  type Inline = string | Record<string, { id?: string, contents?: Inline | Inline[] } & Record<string, unknown>>
  export interface XliffJs {
    sourceLanguage: string
    targetLanguage?: string
    resources: Record<string, Record<string, { source: Inline | Inline[], target?: Inline | Inline[], additionalAttributes?: Record<string, string>, note?: string }>>
  }
  const xliff: {
    xliff12ToJs: (text: string) => Promise<XliffJs>
    xliff2js: (text: string) => Promise<XliffJs>
    targetOfjs: (js: XliffJs) => Record<string, unknown>
  }
  export default xliff
}
