// gettext-parser ships no types; what core/documents/gettext.ts uses of it.
declare module 'gettext-parser' {
  export interface GetTextComment {
    translator?: string
    reference?: string
    extracted?: string
    flag?: string
    previous?: string
  }
  export interface GetTextTranslation {
    msgctxt?: string
    msgid: string
    msgid_plural?: string
    msgstr: string[]
    comments?: GetTextComment
  }
  export interface GetTextTranslations {
    charset: string
    headers?: Record<string, string>
    translations: Record<string, Record<string, GetTextTranslation>>
    obsolete?: Record<string, Record<string, GetTextTranslation>>
  }
  export const po: {
    parse: (input: string | Buffer, options?: { defaultCharset?: string, validation?: boolean }) => GetTextTranslations
    compile: (table: GetTextTranslations, options?: { foldLength?: number, sort?: boolean, escapeCharacters?: boolean, eol?: string }) => Buffer
  }
}
