export { IdempotencyService, IdempotencyScope, UnclaimedKey, unstoredRecorder, type Claim, type ResponseRecorder } from './service.js';
export { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_RETENTION_MS, requestFingerprint } from './rules.js';
export { claimDeferredKey, installIdempotency, sentKey } from './http.js';
