/**
 * The standalone sandbox's settings (`npm run sandbox`), from the environment,
 * validated at start like the backend's (server/config.ts). It reads no .env:
 * that file holds the backend's settings, and DATA_DIR or PORT there are not
 * the sandbox's.
 */
import { z } from 'zod';
import { SandboxServiceKey } from '../contracts';

const Port = z.coerce.number().int().min(0).max(65535);

const SandboxEnv = z.object({
  SANDBOX_PORT: Port.optional(),
  PORT: Port.optional(),
  HOST: z.string().default('127.0.0.1'),
  /** Its keys (keys.json) and database (sandbox.db) are kept under SANDBOX_DATA_DIR/sandbox/. */
  SANDBOX_DATA_DIR: z.string().min(1).default('data-sandbox'),
  GATEWAY_NAME: z.string().regex(/^[a-z0-9_-]+$/).default('walletcheckout'),
  SANDBOX_SERVICE_KEY: SandboxServiceKey.optional(),
  SANDBOX_AUTHENTICATION_TTL_MS: z.coerce.number().int().positive().default(300_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export interface SandboxConfig {
  port: number;
  host: string;
  dataDir: string;
  gatewayName: string;
  /** Absent: the key generated in the data directory's keys.json (printed at start). */
  serviceSecretKey: string | undefined;
  authenticationTtlMs: number;
  logLevel: string;
}

export const DEFAULT_SANDBOX_PORT = 3100;

export function loadSandboxConfig(env: Record<string, string | undefined>): { ok: true; config: SandboxConfig } | { ok: false; problems: string[] } {
  const parsed = SandboxEnv.safeParse(env);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`) };
  const e = parsed.data;
  return {
    ok: true,
    config: {
      port: e.SANDBOX_PORT ?? e.PORT ?? DEFAULT_SANDBOX_PORT,
      host: e.HOST,
      dataDir: e.SANDBOX_DATA_DIR,
      gatewayName: e.GATEWAY_NAME,
      serviceSecretKey: e.SANDBOX_SERVICE_KEY,
      authenticationTtlMs: e.SANDBOX_AUTHENTICATION_TTL_MS,
      logLevel: e.LOG_LEVEL,
    },
  };
}
