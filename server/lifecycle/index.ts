/** Operating the backend: health and readiness probes, graceful shutdown, and the heartbeat tools read. */
export { healthRoutes, type ReadinessOptions } from './health';
export { shutdownOnSignal, trackRequests, type Drainer, type ShutdownTiming, type Stoppable } from './shutdown';
export { startHeartbeat, type Heartbeat } from './heartbeat';
