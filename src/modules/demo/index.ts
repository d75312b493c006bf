export { DEMO } from './fixtures.js';
export { demoRoutes } from './routes.js';
