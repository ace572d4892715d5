/** The remote-call helper every outside-engine adapter uses (and none writes its own). */
export { RemoteService, type RemoteOptions, type Attempt } from './service.js'
export { requestJson, retryAfterMs, statusError, type JsonRequest } from './http.js'
export { createRedactor, type Redactor } from './redact.js'
export { batches, canonicalAnswers, canonicalCode, engineCodes, runBatches } from './batches.js'
