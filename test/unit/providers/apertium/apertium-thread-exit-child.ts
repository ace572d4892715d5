/** For apertium-thread.test.ts: starts en->es in the Apertium thread, says so, and exits without closing anything when told. */
import { createInterface } from 'node:readline'
import { createApertiumThread } from '../../../../src/providers/apertium/apertium-thread.js'

const apertium = createApertiumThread()
const [out] = await apertium.translate({ from: 'en', to: 'es', segments: ['The house is red.'] }, new AbortController().signal)
// the pipeline's process groups reach this thread within half a second of starting
await new Promise(resolve => setTimeout(resolve, 700))
process.stdout.write(JSON.stringify({ translated: out }) + '\n')
createInterface({ input: process.stdin }).once('line', () => process.exit(0))
