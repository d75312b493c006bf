export * from './provider.js';
export { SimulatedProvider } from './simulated/simulated.js';
export * from './simulated/sandbox-cards.js';
export { checkProviders, type ProviderCheck } from './check.js';
export { buildProviders, methodUnavailable, type ConnectorDeps, type Providers } from './router.js';
export { rememberCharge, setProviderId, findChargeRow, markSettled, claimChargesToCheck, findChargeByProviderKey, type ProviderChargeRow } from './repo.js';
