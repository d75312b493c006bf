export { buildVaultApp } from './app.js';
export { internalBearer, type VaultAuthorization } from './authorize.js';
export { eraseCvvsOfIntent } from './repo.js';
export { httpVaultClient, type VaultClient } from './client.js';
export { listPublicKeys, KEY_OVERLAP_MS } from './keys.js';
export { signTicket, verifyTicket } from './tickets.js';
export { MAX_ATTEMPTS_PER_TICKET, hashToken, sweepVault } from './tokenize.js';
export { buildVault, type Vault } from './vault.js';
export { TEST_CARDS } from './card.js';
