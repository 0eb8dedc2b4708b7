/**
 * The apps router on a bare Express app (127.0.0.1, a free port) with a
 * temporary store, configured through loadConfig like the real server, and
 * helpers that mint development-issuer tokens and create apps.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { createApp, type NewApp } from '../server/apps';
import { loadConfig } from '../server/config';
import { openStore, type Store } from '../server/store';
import { coverByContract } from './contract-recorder';
import { listen } from './listen';
import { type DevIssuer, loadDevIssuer } from '../server/apps-api/dev-issuer';
import { appLookupRoutes } from '../server/apps-api';
import { scopeUrl } from '../server/apps-api/scopes';

export const GOOGLE_SCOPE_BASE = 'https://www.googleapis.com/auth';

export interface LookupServer {
  url: string;
  store: Store;
  dataDir: string;
  devIssuer: DevIssuer;
  /** An app and its secret key (to show it never leaks). */
  createApp(overrides?: Partial<NewApp>): Promise<{ id: string; secretKey: string }>;
  /** A development-issuer token; scope names are under the Google scope base unless full. */
  token(scopeNames: string[], options?: { clientId?: string; lifetimeSeconds?: number }): Promise<string>;
  close(): Promise<void>;
}

export async function startLookupServer(env: Record<string, string> = {}): Promise<LookupServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'apps-api-'));
  const loaded = loadConfig({ DATA_DIR: dataDir, ...env });
  if (!loaded.ok) throw new Error(loaded.problems.join('; '));
  const store = await openStore(dataDir, loaded.config.databaseUrl, { limits: loaded.config.storeLimits });
  const app = express();
  app.use(appLookupRoutes({ store, dataDir, gatewayName: loaded.config.gatewayName, ...loaded.config.appLookup }));
  app.use((_req, res) => {
    res.status(404).send('not the apps router');
  });
  const server = await listen(app);
  // Its replies are held against the OpenAPI document like the whole server's (`GET /v3/apps/{appId}`; the /drive copy is
  // not in it), when it serves the document's paths: other base paths leave /v3/apps to this stand-in's 404 page.
  if (env.APPS_API_BASE_PATHS === undefined) coverByContract(server.origin);
  const devIssuer = loadDevIssuer(dataDir);
  return {
    url: server.origin,
    store,
    dataDir,
    devIssuer,
    async createApp(overrides = {}) {
      const created = await createApp(store, { name: 'Corner Shop', merchant_id: 'corner_1', allowed_origins: ['https://corner.example'], ...overrides });
      if (!created.ok) throw new Error(created.error.message);
      return { id: created.value.app.id, secretKey: created.value.secretKey };
    },
    token: (scopeNames, options = {}) =>
      devIssuer.sign({
        scopes: scopeNames.map((name) => scopeUrl(GOOGLE_SCOPE_BASE, name)),
        clientId: options.clientId ?? 'test-client',
        subject: 'tester',
        lifetimeSeconds: options.lifetimeSeconds ?? 300,
      }),
    async close() {
      await server.close();
      await store.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
