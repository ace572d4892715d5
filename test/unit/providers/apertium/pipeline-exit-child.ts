/**
 * Run as a child process by the pipeline tests: starts a pipeline that never answers (the fake
 * mode's STALL), prints its process group id, and exits without calling close().
 */
import { createApertium } from '../../../../src/providers/apertium/index.js'
import { eventually, pipelineLeaders } from '../../../helpers/apertium-processes.js'

const translator = createApertium({ modesDir: process.argv[2]! })
translator.translate({ from: 'en', to: 'es', segments: ['wait STALL'] }, new AbortController().signal).catch(() => {})
await eventually(() => pipelineLeaders().length > 0)
console.log(pipelineLeaders()[0]?.pid)
process.exit(0)
