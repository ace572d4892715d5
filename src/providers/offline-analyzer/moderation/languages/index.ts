/** Every language's moderation data, by base subtag. */
import { de } from './de.js'
import { en } from './en.js'
import { es } from './es.js'
import { fr } from './fr.js'
import { it } from './it.js'
import { nl } from './nl.js'
import { pt } from './pt.js'
import type { LanguageData } from './types.js'

export const LANGUAGES: Readonly<Record<string, LanguageData>> = { en, fr, de, es, it, pt, nl }
