export * from './acquirer.js';
export { SimulatedAcquirer } from './simulated.js';
export * from './sandbox-cards.js';
