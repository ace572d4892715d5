/**
 * How widely each language is spoken, from CLDR's territory data (cldr-core's territoryInfo.json:
 * per territory its population and the share that speaks each language): the sum over
 * territories, as log(speakers / speakers of the most spoken language). The detector weighs it
 * into the prior of short texts (train-lexicon.ts tunes how much).
 */
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

interface TerritoryInfo {
  supplemental: { territoryInfo: Record<string, { _population: string, languagePopulation?: Record<string, { _populationPercent: string }> }> }
}

/** Fewer speakers than this count as this many (CLDR's smallest figures are the least sure). */
const FLOOR = 100_000

/** log share of speakers of each of `languages` that CLDR knows (tags as the detector writes them: zh-Hant, sr-Latn). */
export function usageTable (languages: readonly string[]): Record<string, number> {
  const require = createRequire(import.meta.url)
  const data = JSON.parse(readFileSync(require.resolve('cldr-core/supplemental/territoryInfo.json'), 'utf8')) as TerritoryInfo
  const speakers = new Map<string, number>()
  for (const territory of Object.values(data.supplemental.territoryInfo)) {
    for (const [language, share] of Object.entries(territory.languagePopulation ?? {})) {
      const tag = language.replace(/_/g, '-')
      speakers.set(tag, (speakers.get(tag) ?? 0) + Number(territory._population) * Number(share._populationPercent) / 100)
    }
  }
  const most = Math.max(...speakers.values())
  const table: Record<string, number> = {}
  for (const language of languages) {
    const n = speakers.get(language) ?? 0
    if (n > 0) table[language] = Math.round(100 * Math.log(Math.max(n, FLOOR) / most)) / 100
  }
  return table
}
