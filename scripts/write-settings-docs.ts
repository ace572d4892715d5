/** Rewrites .env.example and docs/configuration.md from the settings table, src/settings.ts (npm run settings). */
import { writeFileSync } from 'node:fs'
import { configurationMd, envExample } from './settings-docs.js'

writeFileSync(new URL('../.env.example', import.meta.url), envExample())
writeFileSync(new URL('../docs/configuration.md', import.meta.url), configurationMd())
process.stdout.write('.env.example and docs/configuration.md written\n')
