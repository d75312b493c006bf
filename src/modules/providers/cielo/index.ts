/** The Cielo E-commerce 3.0 connector: CARD_PROVIDER=cielo, BOLETO_PROVIDER=cielo. */
export { CieloConnector } from './connector.js';
export { CieloProvider } from './provider.js';
export { CieloError, AUTHORIZE_TIMEOUT_MS, CALL_TIMEOUT_MS } from './client.js';
export { merchantOrderIdOf, boletoMerchantOrderIdOf, cieloBrand, CieloStatus } from './mapping.js';
