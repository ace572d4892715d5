/** The rules editor's thread (see thread.ts): loads the dictionaries and answers edits. */
import { serveCalls } from '../../shared/module-thread.js'
import type { EditJob } from '../types.js'
import { createRulesEditor } from './index.js'

const editor = createRulesEditor()

serveCalls({
  ready: async () => { await editor.ready!() },
  // an edit whose request gave up stops at its next pause
  edit: async (job: EditJob, signal: AbortSignal) => await editor.edit(job, signal)
})
