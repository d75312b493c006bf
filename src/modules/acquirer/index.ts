export * from './acquirer.js';
export { SimulatedAcquirer, SILENT_AMOUNT_CENTS } from './simulated.js';
export * from './sandbox-cards.js';
