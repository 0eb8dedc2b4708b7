/**
 * Every setting comes from the environment, validated once at start so a bad
 * value fails loudly, naming the variable, instead of surfacing mid-payment.
 */
import { z } from 'zod';
import { DecryptionMode } from './apps/registry';
import { WalletEnvironment } from './contracts';

const optionalString = z.string().trim().min(1).optional();

const Env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_URL: z.url().optional(),
    DATA_DIR: z.string().default('data'),
    GATEWAY_NAME: z.string().regex(/^[a-z0-9_-]+$/).default('walletcheckout'),
    PAYMENT_SERVICE_URL: z.url().optional(),
    PAYMENT_SERVICE_KEY: optionalString,
    SERVICE_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
    WALLET_ENVIRONMENT: WalletEnvironment.optional(),
    GOOGLE_ROOT_KEYS: optionalString,
    DECRYPTION_MODE: DecryptionMode.default('gateway'),
    DEMO: z.enum(['on', 'off']).default('on'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .refine((env) => !env.PAYMENT_SERVICE_URL === !env.PAYMENT_SERVICE_KEY, {
    message: 'PAYMENT_SERVICE_URL and PAYMENT_SERVICE_KEY are set together (a real service) or not at all (the embedded sandbox)',
    path: ['PAYMENT_SERVICE_URL'],
  })
  .refine((env) => !(env.PAYMENT_SERVICE_URL && env.WALLET_ENVIRONMENT === 'SANDBOX'), {
    message: 'the sandbox wallet seals tokens only the embedded sandbox service can open: use TEST or PRODUCTION with a real service',
    path: ['WALLET_ENVIRONMENT'],
  });

export interface Config {
  port: number;
  host: string;
  /** The origin shoppers' browsers reach us at; derived from the listening address when unset. */
  publicUrl: string | undefined;
  dataDir: string;
  gatewayName: string;
  /** Absent: the embedded sandbox service is started and used. */
  paymentService: { url: string; secretKey: string } | undefined;
  serviceTimeoutMs: number;
  walletEnvironment: WalletEnvironment;
  /** Google's keys.json for direct mode: a path or URL; absent: Google's own for the environment, or the sandbox's. */
  googleRootKeys: string | undefined;
  /** The integration mode of the demo application and the default of `npm run app:create`. */
  decryptionMode: DecryptionMode;
  demo: boolean;
  logLevel: z.infer<typeof Env>['LOG_LEVEL'];
}

export type ConfigResult = { ok: true; config: Config } | { ok: false; problems: string[] };

export function loadConfig(env: Record<string, string | undefined> = process.env): ConfigResult {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    return { ok: false, problems: parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`) };
  }
  const e = parsed.data;
  return {
    ok: true,
    config: {
      port: e.PORT,
      host: e.HOST,
      publicUrl: e.PUBLIC_URL?.replace(/\/$/, ''),
      dataDir: e.DATA_DIR,
      gatewayName: e.GATEWAY_NAME,
      paymentService: e.PAYMENT_SERVICE_URL && e.PAYMENT_SERVICE_KEY ? { url: e.PAYMENT_SERVICE_URL.replace(/\/$/, ''), secretKey: e.PAYMENT_SERVICE_KEY } : undefined,
      serviceTimeoutMs: e.SERVICE_TIMEOUT_MS,
      walletEnvironment: e.WALLET_ENVIRONMENT ?? (e.PAYMENT_SERVICE_URL ? 'TEST' : 'SANDBOX'),
      googleRootKeys: e.GOOGLE_ROOT_KEYS,
      decryptionMode: e.DECRYPTION_MODE,
      demo: e.DEMO === 'on',
      logLevel: e.LOG_LEVEL,
    },
  };
}
