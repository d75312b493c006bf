export { CieloProvider } from './provider.js';
export { CieloError, AUTHORIZE_TIMEOUT_MS, CALL_TIMEOUT_MS } from './client.js';
export { merchantOrderIdOf, cieloBrand, CieloStatus } from './mapping.js';
