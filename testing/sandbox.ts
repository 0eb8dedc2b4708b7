/** Shared set-up for the sandbox tests: a real HTTP server on 127.0.0.1 and helpers that speak to it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { App } from '../server/apps';
import { buildPaymentDataRequest } from '../contracts/payment-data-request';
import type { NetworkToken, PaymentData, PaymentDataRequest, PublicSession } from '../contracts';
import { listen } from './listen';
import { createSandboxService } from '../sandbox';
import type { FaultPlanInput, LedgerEntry, SandboxService } from '../sandbox';
import { type RunningSandboxServer, startSandboxServer } from '../sandbox/server';
import { createLogger } from '../common/logging';

export const GATEWAY = 'walletcheckout';
export const MERCHANT = 'merchant_123';

export interface RunningSandbox {
  service: SandboxService;
  baseUrl: string;
  close(): Promise<void>;
}

/** Without a dataDir, a temporary one is made and removed on close. */
export async function startSandbox(options: { dataDir?: string; now?: () => number; faults?: FaultPlanInput } = {}): Promise<RunningSandbox> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sandbox-test-'));
  const { now, faults } = options;
  const service = await createSandboxService({ dataDir, gatewayName: GATEWAY, ...(now ? { now } : {}), ...(faults ? { faults } : {}) });
  const server = await listen(express().use('/sandbox', service.router));
  return {
    service,
    baseUrl: `${server.origin}/sandbox`,
    async close() {
      await server.close();
      await service.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A request as the backend builds it (contracts/payment-data-request.ts) for a test merchant, with the parts a test varies. */
export function paymentDataRequest(overrides: {
  merchantId?: string;
  gateway?: string;
  authMethods?: App['authMethods'];
  networks?: App['cardNetworks'];
  format?: 'MIN' | 'FULL';
} = {}): PaymentDataRequest {
  const app = {
    name: 'Test Store',
    merchantId: overrides.merchantId ?? MERCHANT,
    environment: 'SANDBOX',
    decryptionMode: 'gateway',
    authMethods: overrides.authMethods ?? ['PAN_ONLY', 'CRYPTOGRAM_3DS'],
    cardNetworks: overrides.networks ?? ['AMEX', 'DISCOVER', 'MASTERCARD', 'VISA'],
  } as App;
  const request = buildPaymentDataRequest(app, { id: 'cs_test', amount: 1234, currency: 'USD', countryCode: 'US' }, { gatewayName: overrides.gateway ?? GATEWAY });
  for (const method of request.allowedPaymentMethods) method.parameters.billingAddressParameters = { format: overrides.format ?? 'FULL' };
  return request;
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown; text: string; headers: Headers }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined, text, headers: response.headers };
}

/** The sandbox wallet's endpoints, wherever the session's view says its script is (the backend, or a standalone sandbox), as the script finds them. */
export function sandboxWalletUrl(wallet: PublicSession['wallet']): string {
  if (!wallet.sandbox_script) throw new Error(`a ${wallet.environment} session has no sandbox wallet`);
  return `${new URL(wallet.sandbox_script).origin}/sandbox/wallet`;
}

/**
 * What Google Pay would return for a test card: the sandbox wallet at
 * `walletUrl` (`{origin}/sandbox/wallet`) mints a real ECv2 token for `request`,
 * with the billing address `billingAddressId` (sandbox/billing-addresses.ts; the first when absent) and, when
 * the request asks for one, the shipping address `shippingAddressId` (sandbox/shipping-addresses.ts; the first allowed when absent)
 * and, when it asks for a delivery option, the option `shippingOptionId` the shopper picked in the sheet.
 */
export async function mintPaymentData(
  walletUrl: string,
  cardId: string,
  request: PaymentDataRequest,
  billingAddressId?: string,
  shippingAddressId?: string,
  shippingOptionId?: string,
  redemptionCodes?: string[],
): Promise<PaymentData> {
  const reply = await postJson(`${walletUrl}/tokens`, {
    card_id: cardId,
    ...(billingAddressId && { billing_address_id: billingAddressId }),
    ...(shippingAddressId && { shipping_address_id: shippingAddressId }),
    ...(shippingOptionId && { shipping_option_id: shippingOptionId }),
    ...(redemptionCodes && { redemption_codes: redemptionCodes }),
    payment_data_request: request,
  });
  if (reply.status !== 200) throw new Error(`the sandbox wallet minted no token: ${reply.text}`);
  return (reply.body as { payment_data: PaymentData }).payment_data;
}

export const mintToken = (sandbox: RunningSandbox, cardId: string, request: PaymentDataRequest = paymentDataRequest(), billingAddressId?: string): Promise<PaymentData> =>
  mintPaymentData(`${sandbox.baseUrl}/wallet`, cardId, request, billingAddressId);

export function serviceHeaders(sandbox: RunningSandbox, extra: Record<string, string> = {}): Record<string, string> {
  return { authorization: `Bearer ${sandbox.service.serviceSecretKey}`, 'merchant-account': MERCHANT, ...extra };
}

export function postCharge(sandbox: RunningSandbox, body: unknown, headers: Record<string, string> = serviceHeaders(sandbox)) {
  return postJson(`${sandbox.baseUrl}/service/api/v1/charges`, body, headers);
}

/** The charge the backend would send for a minted PaymentData. */
export const walletpayCharge = (paymentData: PaymentData, amount = 1234) => ({
  source_data: { type: 'walletpay', walletpay: JSON.parse(paymentData.paymentMethodData.tokenizationData.token) as unknown },
  amount,
  currency: 'usd',
});

export const networkTokenCharge = (token: string, extra: Partial<Pick<NetworkToken, 'three_ds' | 'expiry_year' | 'expiry_month'>> = {}) => ({
  source_data: {
    type: 'network_token',
    network_token: { token, token_type: 'walletpay', expiry_month: extra.expiry_month ?? '12', expiry_year: extra.expiry_year ?? '2099', ...(extra.three_ds ? { three_ds: extra.three_ds } : {}) },
  },
  amount: 500,
  currency: 'eur',
});

export interface StandaloneSandbox extends RunningSandboxServer {
  dataDir: string;
  /** GET /sandbox/service/ledger under the service key: every operation on money, oldest first. */
  ledger(): Promise<LedgerEntry[]>;
  /** PUT /sandbox/service/faults, as the soak does. */
  setFaults(plan: FaultPlanInput): Promise<void>;
}

/** GET {sandboxUrl}/sandbox/service/ledger under the service key: every operation on money, oldest first. */
export async function fetchLedger(sandboxUrl: string, serviceKey: string): Promise<LedgerEntry[]> {
  const response = await fetch(`${sandboxUrl}/sandbox/service/ledger`, { headers: { authorization: `Bearer ${serviceKey}` } });
  if (!response.ok) throw new Error(`the sandbox's ledger answered ${response.status}`);
  return ((await response.json()) as { entries: LedgerEntry[] }).entries;
}

/** The sandbox as its own service (what `npm run sandbox` starts), in this process on its own free port; without a dataDir, a temporary one removed on close. */
export async function startStandaloneSandbox(options: { dataDir?: string; serviceSecretKey?: string } = {}): Promise<StandaloneSandbox> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'sandbox-standalone-'));
  const server = await startSandboxServer({ port: 0, host: '127.0.0.1', logger: createLogger('silent'), dataDir, gatewayName: GATEWAY, serviceSecretKey: options.serviceSecretKey });
  const authorization = { authorization: `Bearer ${server.serviceSecretKey}` };
  return {
    ...server,
    dataDir,
    ledger: () => fetchLedger(server.url, server.serviceSecretKey),
    async setFaults(plan) {
      const response = await fetch(`${server.url}/sandbox/service/faults`, { method: 'PUT', headers: { ...authorization, 'content-type': 'application/json' }, body: JSON.stringify(plan) });
      if (!response.ok) throw new Error(`the sandbox's faults answered ${response.status}: ${await response.text()}`);
    },
    async close() {
      await server.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
