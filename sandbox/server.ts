/**
 * The sandbox as a service of its own (`npm run sandbox`, dist/server/sandbox.js):
 * the payment service, the sandbox wallet's endpoints and its script, on their
 * own port, with their own data directory and keys. A backend reaches it as it
 * would a real service (SANDBOX_URL, docs/operations.md).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { clientErrors, httpError, sendError } from '../common/http/errors';
import { packageRoutes } from '../common/http/packages';
import { bundleRoutes, sandboxWalletBundle } from '../common/http/static';
import { type Logger, loggedError, requestLog, requestLogger } from '../common/logging';
import { createSandboxService, type SandboxOptions, type SandboxService } from './index';

export interface SandboxServerOptions extends SandboxOptions {
  /** 0: any free port. */
  port: number;
  host: string;
  logger: Logger;
}

export interface RunningSandboxServer {
  /** Where it listens, e.g. http://127.0.0.1:3100: a backend's SANDBOX_URL. */
  url: string;
  /** What a backend sends as `Authorization: Bearer` (its SANDBOX_SERVICE_KEY). */
  serviceSecretKey: string;
  service: SandboxService;
  /** Stops taking connections, closes those left, then lets held charges commit and closes the database. */
  close(): Promise<void>;
}

export async function startSandboxServer(options: SandboxServerOptions): Promise<RunningSandboxServer> {
  const { port, host, logger, ...sandboxOptions } = options;
  const service = await createSandboxService(sandboxOptions);
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLogger(logger));
  app.get('/healthz', (_req, res) => res.json({ status: 'ok' }));
  app.use(bundleRoutes(sandboxWalletBundle));
  // The QA kit pays through this sandbox: its packages are served here too (common/http/packages.ts).
  app.use(packageRoutes());
  app.use('/sandbox', service.router);
  app.use((_req, res) => sendError(res, httpError(404, 'not_found', 'No such route')));
  app.use(clientErrors);
  app.use(((error, req, res, _next) => {
    // As the backend's (server/app.ts): the request's id, never what the caller sent.
    requestLog(req, logger).error({ error: loggedError(error) }, 'unhandled error');
    if (!res.headersSent) sendError(res, httpError(500, 'internal_error', 'Something went wrong on our side'));
  }) satisfies ErrorRequestHandler);

  const http = createServer(app);
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, host, resolve);
  });
  const listening = (http.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${listening}`,
    serviceSecretKey: service.serviceSecretKey,
    service,
    async close() {
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      http.closeIdleConnections();
      // A backend's keep-alive connections would hold the close open; requests in flight have had their answer by now.
      setTimeout(() => http.closeAllConnections(), 2_000).unref();
      await closed;
      await service.close();
    },
  };
}
