/** The rules editor's thread (see thread.ts): loads the dictionaries and answers edits. */
import { serveCalls } from '../../shared/module-thread.js'
import type { EditJob } from '../types.js'
import { createRulesEditor } from './index.js'

const editor = createRulesEditor()
// the caller drops calls whose request gave up before they run; a running one finishes
const running = new AbortController().signal

serveCalls({
  ready: async () => { await editor.ready!() },
  edit: async (job: EditJob) => await editor.edit(job, running)
})
