/** The offline analyser's thread (see thread.ts): loads the models and answers analyses. */
import { serveCalls } from '../../shared/module-thread.js'
import type { AnalysisPart } from '../types.js'
import { createOfflineAnalyzer } from './index.js'

const analyzer = createOfflineAnalyzer()

serveCalls({
  ready: async () => { await analyzer.ready!() },
  analyze: async (text: string, language: string, parts: AnalysisPart[], signal: AbortSignal) => await analyzer.analyze(text, language, parts, signal)
})
