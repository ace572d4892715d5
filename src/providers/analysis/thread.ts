/**
 * The offline analyser in a thread of its own (offline-worker.ts): its models load and its
 * analyses run there, so a long text (about a second per 100,000 characters) never holds the
 * event loop that answers every other request, and the models are held once, by that thread.
 * One analysis runs at a time (it does not yield); one whose request gave up is dropped before it starts.
 */
import { ModelThread } from '../../shared/module-thread.js'
import type { AnalysisAnswer, Analyzer } from '../types.js'
import { OFFLINE_ANALYZER, offlineSupports } from './languages.js'

export function createOfflineAnalyzerThread (): Analyzer {
  const thread = new ModelThread({ from: import.meta.url, name: './offline-worker', label: 'offline analyzer' })
  const ready = async (): Promise<void> => { await thread.call('ready', []) }
  // start loading at once, in the background; /ready waits for it
  ready().catch(() => {})
  return {
    name: OFFLINE_ANALYZER,
    supports: offlineSupports,
    ready,
    analyze: async (text, language, parts, signal) => await thread.call<AnalysisAnswer>('analyze', [text, language, parts], signal),
    close: async () => { await thread.close() }
  }
}
