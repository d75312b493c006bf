/** The API Pix (BCB standard) connector: PIX_PROVIDER=bcb-api-pix. */
export { BcbPixConnector } from './connector.js';
export { BcbPixProvider } from './provider.js';
export { PixHttpClient, PixTransportError, PixCredentialsRefused, PIX_TIMEOUT_MS, type PixHttpOptions } from './client.js';
export * from './mapping.js';
