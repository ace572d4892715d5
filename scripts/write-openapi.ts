/** Rewrites openapi.yaml from the route schemas (npm run openapi). */
import { writeFileSync } from 'node:fs'
import { openapiYaml } from '../src/openapi-document.js'

writeFileSync(new URL('../openapi.yaml', import.meta.url), await openapiYaml())
process.stdout.write('openapi.yaml written\n')
