export { grantVaultAccess } from './access.js';
export { internalBearer, isInternalBearer, type CardAuthorizer, type VaultAuthorization } from './authorize.js';
export { httpVaultClient, type NotChargedBody, type VaultClient } from './client.js';
export type { ClosedIntentNotice } from './closed-intents.js';
export { listPublicKeys, KEY_CACHE_MS, KEY_OVERLAP_MS, type VaultKeys } from './keys.js';
export { signTicket, verifyTicket } from './tickets.js';
export { MAX_ATTEMPTS_PER_TICKET, hashToken, type Tokenizer } from './tokenize.js';
export { buildVault, type Vault } from './vault.js';
export { TEST_CARDS } from './card.js';
