/** The remote-call helper every outside-engine adapter uses (and none writes its own). */
export { RemoteService, type RemoteOptions, type Attempt } from './service.js'
export { requestJson, retryAfterMs, statusError, reasonOf, type JsonRequest } from './http.js'
export { batches, canonicalAnswers, canonicalCode, engineCodes, runBatches } from './batches.js'
