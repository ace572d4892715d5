/** Locale data shapes. */
import { Type, type Static } from 'typebox'

const Named = Type.Object({ tag: Type.String(), name: Type.String() })

export const Locale = Type.Object({
  tag: Type.String({ examples: ['pt-BR'] }),
  name: Type.String({ examples: ['Portuguese (Brazil)'] }),
  region: Named,
  script: Named,
  base: Type.String({ examples: ['pt'] }),
  parent: Type.String({ description: 'CLDR parent locale ("root" at the top).', examples: ['pt'] })
})

export const DisplayQuery = Type.Object({
  display: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Give names in this language (BCP 47 tag); default English. A language no names are known in ("xx") is a 400, never English in its place.' }))
}, { additionalProperties: false })

export const LocaleParams = Type.Object({
  tag: Type.String({ minLength: 1, maxLength: 100, description: 'BCP 47 locale tag. Extensions and private use are left out (en-US-u-ca-buddhist is answered as en-US).' })
})

export type LocaleT = Static<typeof Locale>
