export { buildVaultApp } from './app.js';
export { internalBearer, type VaultAuthorization } from './authorize.js';
export { httpVaultClient, type VaultClient } from './client.js';
export { listPublicKeys, KEY_CACHE_MS, KEY_OVERLAP_MS } from './keys.js';
export { signTicket, verifyTicket } from './tickets.js';
export { MAX_ATTEMPTS_PER_TICKET, hashToken } from './tokenize.js';
export { buildVault, type Vault } from './vault.js';
export { TEST_CARDS } from './card.js';
export type { IntentTokenGate, IntentTokenState } from './intent-gate.js';
