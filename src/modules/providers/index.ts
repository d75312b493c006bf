export * from './provider.js';
export * from './capabilities.js';
export { SimulatedProvider } from './simulated/simulated.js';
export * from './simulated/sandbox-cards.js';
export { checkProviders } from './check.js';
export { buildProviders, methodUnavailable, type Providers } from './router.js';
export { findChargeRow, markSettled, claimChargesToCheck, type ProviderChargeRow } from './repo.js';
