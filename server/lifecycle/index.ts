/** Operating the backend: health and readiness probes, graceful shutdown, the heartbeat tools read, and what wakes the workers. */
export { healthRoutes, type ReadinessOptions } from './health';
export { shutdownOnSignal, trackRequests, type Drainer, type ShutdownTiming, type Stoppable } from './shutdown';
export { startHeartbeat, type Heartbeat } from './heartbeat';
export { startWorkWakes, type WorkWakes } from './work-wakes';
