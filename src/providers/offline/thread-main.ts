/**
 * The offline engines' thread (see thread.ts): the offline analyser and the rules editor, each
 * made on its first call; their models and dictionaries load here once for the whole process.
 */
import { resourceLimits, threadId } from 'node:worker_threads'
import { serveParent } from '../../runtime/service-thread.js'
import { idleCollections } from '../../runtime/idle-gc.js'
import type { AnalysisPart, EditCall } from '../../core/ports.js'
import { createOfflineAnalyzer } from '../offline-analyzer/index.js'
import { createRulesEditor } from '../rules-editor/editor.js'

let analyzer: ReturnType<typeof createOfflineAnalyzer> | undefined
let editor: ReturnType<typeof createRulesEditor> | undefined
const offline = (): ReturnType<typeof createOfflineAnalyzer> => (analyzer ??= createOfflineAnalyzer())
const rules = (): ReturnType<typeof createRulesEditor> => (editor ??= createRulesEditor())

// the heap an analysis or an edit grew into goes back to the system once the thread is idle (serveParent)
serveParent({
  analyzerReady: async () => { await offline().ready!() },
  analyze: async (text: string, language: string, parts: AnalysisPart[], signal: AbortSignal) => await offline().analyze(text, language, parts, signal),
  editorReady: async () => { await rules().ready!() },
  edit: async (job: EditCall, signal: AbortSignal) => await rules().edit(job, signal),
  spellsAs: async (text: string, language: string, signal: AbortSignal) => await rules().spellsAs!(text, language, signal),
  loaded: () => ({ threadId, analyzer: analyzer !== undefined, dictionaries: editor?.loads().map(l => l.language) ?? [], youngGenerationMb: resourceLimits.maxYoungGenerationSizeMb, idleCollections: idleCollections() })
})
