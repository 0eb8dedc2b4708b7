/** Operating the backend: health and readiness probes, and graceful shutdown. */
export { healthRoutes, type ReadinessOptions } from './health';
export { trackRequests, type Drainer } from './shutdown';
