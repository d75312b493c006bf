export { DEMO } from './fixtures.js';
export { demoRoutes, demoPagePolicy, type DemoServices, DEMO_SOURCE, DEMO_BUYER, DEMO_DEFAULT_AMOUNT_CENTS, DEMO_MAX_AMOUNT_CENTS } from './routes.js';
