/**
 * The merchant-initiated soak's audit can fail: a key made into two sessions, or charged twice; a charge no key's
 * session owns; a key answered 201 whose session the merchant cannot find; a charge of another amount or card; a
 * charge without the kept card's first network reference; a session still pending. Each is named. The soak itself,
 * short, runs in server/store/store-outage.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Charge, PaymentMethod, Session } from '../contracts';
import type { LedgerEntry } from '../sandbox';
import type { ServiceKeptCards } from './child-server';
import { auditMerchantInitiated, type BilledKey } from './soak-mit';

const REFERENCE = '483920174628391';
const method = { id: 'pm_1', customer: 'soak-cus-1', card: { last4: '1111' }, network_transaction_reference: REFERENCE, agreement: { session_id: 'cs_save' } } as unknown as PaymentMethod;
const saving = { id: 'cs_save', status: 'succeeded', attempts: 1, outcome: { charge_id: 'ch_save' } } as unknown as Session;
const mitSession = (id: string, overrides: Partial<Session> = {}) =>
  ({ id, intent: 'merchant_initiated', status: 'succeeded', amount: 500, attempts: 1, payment_method: 'pm_1', outcome: { charge_id: `ch_${id}` }, ...overrides }) as unknown as Session;
const billedKey = (overrides: Partial<BilledKey> = {}): BilledKey => ({ key: 'soak-bill:pm_1:1', paymentMethod: 'pm_1', amount: 500, sessions: new Set(['cs_mit']), statuses: ['succeeded'], unknown: 0, refused: [], ...overrides });
const serviceCharge = (sessionId: string, overrides: Partial<Charge> = {}, reference = REFERENCE): ServiceKeptCards['charges'][number] => ({
  merchant_account: 'demo',
  idempotency_key: `${sessionId}:attempt:1`,
  charge: { id: `ch_${sessionId}`, status: 'succeeded', amount: 500, currency: 'usd', payment_method: 'pm_service', card: { last4: '1111' }, ...overrides } as Charge,
  storedCredential: { initiator: 'merchant', reason: 'subscription', network_transaction_reference: reference },
});
const ledger = [{ operation: 'charge', idempotency_key: 'cs_save:attempt:1', charge: { id: 'ch_save', status: 'succeeded', network_transaction_reference: REFERENCE } }] as LedgerEntry[];
const kept = [{ id: 'pm_service', merchantAccount: 'demo', kept: { customer: 'cus_x', networkTransactionReference: REFERENCE, detached: null, created: 1 } }] as ServiceKeptCards['methods'];

function audit(options: { billed?: BilledKey; found?: string[]; sessions?: Session[]; charges?: ServiceKeptCards['charges'] } = {}) {
  const billed = options.billed ?? billedKey();
  const sessions = options.sessions ?? [mitSession('cs_mit')];
  return auditMerchantInitiated({
    billed: new Map([[billed.key, billed]]),
    sessionsOfKey: new Map([[billed.key, options.found ?? sessions.map((session) => session.id)]]),
    sessions: new Map([saving, ...sessions].map((session) => [session.id, session])),
    methods: new Map([['pm_1', method]]),
    ledger,
    service: { charges: options.charges ?? [serviceCharge('cs_mit')], methods: kept },
  });
}

describe("the merchant-initiated soak's audit", () => {
  it('passes one session and one charge per key, of its card and amount, naming the saving charge\'s reference', () => {
    expect(audit()).toMatchObject({ keys: 1, sessions: 1, succeeded: 1, charges: 1, duplicates: [], lost: [], mismatched: [], credentials: [], pending: [] });
  });

  it('names a key made into two sessions, each charged', () => {
    const report = audit({ sessions: [mitSession('cs_mit'), mitSession('cs_two')], charges: [serviceCharge('cs_mit'), serviceCharge('cs_two')] });
    expect(report.duplicates).toEqual(['soak-bill:pm_1:1: sessions cs_mit, cs_two', 'soak-bill:pm_1:1: 2 charges at the service']);
  });

  it('names a charge no session of a key owns, and a key answered 201 with a session the merchant cannot find', () => {
    expect(audit({ charges: [serviceCharge('cs_mit'), serviceCharge('cs_stray')] }).lost).toEqual([expect.stringContaining('ch_cs_stray (succeeded, merchant-initiated) belongs to no session')]);
    expect(audit({ found: [], charges: [] }).lost).toEqual(['soak-bill:pm_1:1 was answered with cs_mit, which the merchant\'s listing does not have']);
  });

  it('names a charge of another amount or card, a session answered succeeded that ended declined, and one still pending', () => {
    expect(audit({ charges: [serviceCharge('cs_mit', { amount: 600 })] }).mismatched).toEqual(['ch_cs_mit: 600 usd, soak-bill:pm_1:1 is for 500 usd']);
    expect(audit({ charges: [serviceCharge('cs_mit', { payment_method: 'pm_other' })] }).mismatched).toEqual([expect.stringContaining('ch_cs_mit charged pm_other')]);
    expect(audit({ sessions: [mitSession('cs_mit', { status: 'declined' })] }).mismatched).toContain('soak-bill:pm_1:1 was answered succeeded, and cs_mit is declined');
    expect(audit({ sessions: [mitSession('cs_mit', { status: 'pending', outcome: null })], charges: [] }).pending).toEqual(['cs_mit of soak-bill:pm_1:1 is pending']);
  });

  it('names a charge whose stored credential is not the first transaction\'s reference', () => {
    const [line] = audit({ charges: [serviceCharge('cs_mit', {}, '999999999999999')] }).credentials;
    expect(line).toContain('names subscription 999999999999999');
  });
});
