/** The document runner the service gives core (app.ts): the process's thread pool. */
import type { DocumentTask, TaskResult } from '../../../../src/core/documents/offload.js'
import { DOCUMENT_TASKS } from '../../../../src/http/document-tasks.js'
import { poolRunner, processPool, type ThreadPool } from '../../../../src/runtime/pool.js'

export const poolDocuments = poolRunner<DocumentTask, TaskResult>(processPool, DOCUMENT_TASKS, 'runPooledTask')

/** The same on a pool of the test's own. */
export const documentsOn = (pool: ThreadPool): typeof poolDocuments => poolRunner<DocumentTask, TaskResult>(() => pool, DOCUMENT_TASKS, 'runPooledTask')
