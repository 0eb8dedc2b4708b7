/**
 * The embedded sandbox payment service: a stand-in for the real payment
 * service (charges API, ECv2 gateway decryption, test-card outcomes) and for
 * Google's wallet (real tokens signed by a sandbox root). It keeps its own keys
 * and database, as a separate service would. Mounted at /sandbox: by the
 * backend (embedded, `npm start`) or by its own server (./server.ts, `npm run
 * sandbox`); either way the backend reaches it over HTTP only.
 */
import { privateDirectory } from '../common/private-files';
import { join } from 'node:path';
import express from 'express';
import type { Router } from 'express';
import type { RootSigningKey } from '../contracts';
import { rootKeyEntry } from '../common/ecv2';
import { createFaults } from './faults';
import type { FaultPlanInput } from './faults';
import { loadOrCreateKeys } from './keys';
import { createLateIssuer } from './late-issuer';
import { serviceRouter } from './service-api';
import { releaseUnfinishedIdempotencyKeys } from '../common/store/idempotency';
import { allLedgerEntries, openSandboxDb } from './store';
import type { LedgerEntry } from './store';
import { walletRouter } from './wallet-api';
import type { RegisteredPlatform } from './platform-check';

export type { LedgerEntry } from './store';
export { FaultKind, FaultPlan, faultKinds } from './faults';
export type { FaultPlanInput } from './faults';

const DEFAULT_AUTHENTICATION_TTL_MS = 5 * 60_000;

export interface SandboxOptions {
  /** The sandbox keeps its files (keys.json, sandbox.db) under join(dataDir, 'sandbox'). */
  dataDir: string;
  /** The gateway identifier merchants put in their wallet request; tokens are sealed for `gateway:<gatewayName>`. */
  gatewayName: string;
  /** Clock in ms since epoch, injectable so expiries are testable. */
  now?: () => number;
  /** Faults injected into a share of charge and refund requests from the start; none by default. */
  faults?: FaultPlanInput;
  /** How long a 3-D Secure challenge stays open before it is `expired`; 5 minutes by default. */
  authenticationTtlMs?: number;
  /** The platform whose authJwt the sandbox wallet accepts (what Google holds once a platform registered). */
  platform?: RegisteredPlatform | undefined;
  /** The key service clients must send (SANDBOX_SERVICE_KEY of a standalone sandbox); absent: the one generated in keys.json. */
  serviceSecretKey?: string | undefined;
}

export interface SandboxService {
  /** Serves /service/... (the payment service) and /wallet/... (the sandbox wallet); mount at /sandbox. */
  router: Router;
  /** What a service client sends as `Authorization: Bearer`. */
  serviceSecretKey: string;
  /** Every operation on money (charge, capture, release, refund), oldest first, with the charge as it left it (and a refund's refund). */
  ledger(): Promise<LedgerEntry[]>;
  /** The sandbox root, as keys.json entries: direct decryption trusts it in sandbox mode. */
  rootKeys: RootSigningKey[];
  /** Replaces the fault plan, as PUT /service/faults does; `{rate: 0}` turns injection off. */
  setFaults(plan: FaultPlanInput): void;
  /** Lets charges held by a latency or timeout fault commit, then closes the database. */
  close(): Promise<void>;
}

export async function createSandboxService(options: SandboxOptions): Promise<SandboxService> {
  const dir = join(options.dataDir, 'sandbox');
  privateDirectory(dir);
  const stored = loadOrCreateKeys(join(dir, 'keys.json'));
  const keys = { ...stored, serviceSecretKey: options.serviceSecretKey ?? stored.serviceSecretKey };
  const db = await openSandboxDb(join(dir, 'sandbox.db'));
  // A process killed mid-request (kill -9 while a charge was held) left its claim behind: retries would meet idempotency_key_in_use forever.
  await releaseUnfinishedIdempotencyKeys(db);
  const now = options.now ?? Date.now;
  const rootKeys = [rootKeyEntry(keys.root)];
  const context = { keys, gatewayName: options.gatewayName, rootKeys, now };
  const faults = createFaults(options.faults);

  const router = express.Router();
  router.use('/service', serviceRouter({ ...context, db, faults, lateIssuer: createLateIssuer(), authenticationTtlMs: options.authenticationTtlMs ?? DEFAULT_AUTHENTICATION_TTL_MS }));
  router.use('/wallet', walletRouter({ ...context, platform: options.platform }));

  return {
    router,
    serviceSecretKey: keys.serviceSecretKey,
    ledger: () => allLedgerEntries(db),
    rootKeys,
    setFaults: (plan) => faults.setPlan(plan),
    async close() {
      await faults.drain();
      await db.destroy();
    },
  };
}
