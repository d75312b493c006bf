export { buildVaultApp, type VaultAppDeps } from './app.js';
export { CardAuthorizer, internalBearer, type AuthorizeRequest, type VaultAuthorization } from './authorize.js';
export { httpVaultClient, type VaultClient } from './client.js';
export { VaultKeys, listPublicKeys, KEY_OVERLAP_MS, type PublicKeyView } from './keys.js';
export { vaultSealers, type VaultSealers } from './master-key.js';
export { signTicket, verifyTicket } from './tickets.js';
export { Tokenizer, MAX_ATTEMPTS_PER_TICKET, hashToken, sweepVault } from './tokenize.js';
export { buildVault, type Vault, type VaultDeps } from './vault.js';
export { TEST_CARDS } from './card.js';
