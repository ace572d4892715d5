/** The offline analyser's tasks on a pool thread (see pooled.ts): its models load on the thread's first analysis and stay. */
import type { AnalysisPart } from '../../core/ports.js'
import { createOfflineAnalyzer } from './index.js'

let analyzer: ReturnType<typeof createOfflineAnalyzer> | undefined
const offline = (): ReturnType<typeof createOfflineAnalyzer> => (analyzer ??= createOfflineAnalyzer())

export async function ready (): Promise<void> {
  await offline().ready!()
}

export async function analyze (text: string, language: string, parts: AnalysisPart[]): Promise<unknown> {
  return await offline().analyze(text, language, parts, new AbortController().signal)
}
