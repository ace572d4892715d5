/**
 * The offline analyser in a thread of its own (offline-worker.ts): its models load and its
 * analyses run there, so a long text (about a second per 100,000 characters) never holds the
 * event loop that answers every other request, and the models are held once, by that thread.
 * One analysis runs at a time (it does not yield); one whose request gave up is dropped before it starts.
 */
import { ModelThread, type Caller } from '../../shared/module-thread.js'
import type { AnalysisAnswer, Analyzer } from '../types.js'
import { OFFLINE_ANALYZER, offlineSupports } from './languages.js'

/** `remote`: the analyser of another thread, reached over a port (the large-request thread uses its process's). */
export function createOfflineAnalyzerThread (remote?: Caller): Analyzer {
  const thread = remote === undefined ? new ModelThread({ from: import.meta.url, name: './offline-worker', label: 'offline analyzer' }) : undefined
  const call: Caller = remote ?? (async (method, args, signal) => await thread!.call(method, args, signal))
  const ready = async (): Promise<void> => { await call('ready', []) }
  // start loading at once, in the background; /ready waits for it
  if (thread !== undefined) ready().catch(() => {})
  return {
    name: OFFLINE_ANALYZER,
    supports: offlineSupports,
    ready,
    analyze: async (text, language, parts, signal) => await call<AnalysisAnswer>('analyze', [text, language, parts], signal),
    close: async () => { await thread?.close() }
  }
}
