/**
 * The offline analyser and the rules editor in one thread per process (thread-main.ts): their
 * models and spelling dictionaries load there once, not in every pool thread, and their work runs
 * there, off the event loop that answers every other request. Calls interleave: an analysis yields
 * between its parts and an edit every few milliseconds, and a call whose request gave up stops at
 * the next of those points. The thread is the process's, shared by every app built in it; it does
 * not keep the process alive while idle.
 */
import { ServiceThread } from '../../runtime/service-thread.js'
import type { AnalysisAnswer, Analyzer, EditedSegment, Editor, EditCall } from '../../core/ports.js'
import { OFFLINE_ANALYZER, offlineSupports } from '../offline-analyzer/languages.js'
import { rulesCannot, SPELLING_LANGUAGES } from '../rules-editor/editor.js'

/** The thread's young generation (MB), whatever the start command gives the process's other threads. */
const OFFLINE_YOUNG_MB = 24

// analyses and edits allocate fast: with the process's 2 MB semi-spaces they were slower (docs/benchmarks.md, "Memory budget")
const thread = new ServiceThread({ from: import.meta.url, name: './thread-main', label: 'the offline analyser and editor', resourceLimits: { maxYoungGenerationSizeMb: OFFLINE_YOUNG_MB } })

/** What the thread holds: its id, whether the analysers are made, the dictionaries loaded, its young generation's bound (MB), how often its idle heap was collected (idle-gc.ts). */
export async function offlineLoaded (): Promise<{ threadId: number, analyzer: boolean, dictionaries: string[], youngGenerationMb: number | undefined, idleCollections: number }> {
  return await thread.call('loaded', [])
}

export function createThreadedOfflineAnalyzer (): Analyzer {
  return {
    name: OFFLINE_ANALYZER,
    supports: offlineSupports,
    ready: async () => { await thread.call('analyzerReady', []) },
    analyze: async (text, language, parts, signal) => await thread.call<AnalysisAnswer>('analyze', [text, language, parts], signal)
  }
}

export function createThreadedRulesEditor (): Editor {
  const spelling = new Set(SPELLING_LANGUAGES)
  return {
    name: 'rules',
    cannot: (edit, language) => rulesCannot(edit, language, spelling),
    ready: async () => { await thread.call('editorReady', []) },
    edit: async (job: EditCall, signal: AbortSignal) => await thread.call<EditedSegment[]>('edit', [job], signal),
    spellsAs: async (text: string, language: string, signal: AbortSignal) => await thread.call<boolean>('spellsAs', [text, language], signal)
  }
}
