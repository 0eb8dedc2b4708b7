/**
 * The sandbox's refund call: what is left of a captured charge and no more,
 * a hold released rather than refunded, once per Idempotency-Key, read back
 * by id, and met by the same faults as charges.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Charge, ServiceRefund } from '../contracts';
import { networkTokenCharge, postCharge, postJson, serviceHeaders, startSandbox } from '../testing/sandbox';

const sandbox = await startSandbox();
afterAll(() => sandbox.close());

const refundsUrl = `${sandbox.baseUrl}/service/api/v1/refunds`;
const postRefund = (body: unknown, extra: Record<string, string> = {}) => postJson(refundsUrl, body, serviceHeaders(sandbox, extra));
const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;

async function charge(capture = true, number = '4111111111111111'): Promise<Charge> {
  const reply = await postCharge(sandbox, { ...networkTokenCharge(number), capture });
  return Charge.parse(reply.body);
}

describe('sandbox refunds', () => {
  it('refund what is left of a captured charge, in parts, and refuse a unit more', async () => {
    const { id, amount } = await charge();
    const first = await postRefund({ charge: id, amount: 200, reason: 'duplicate' });
    expect(first.status).toBe(201);
    const refund = ServiceRefund.parse(first.body);
    expect(refund).toMatchObject({ object: 'refund', charge: id, amount: 200, currency: 'eur', status: 'succeeded', failure_code: null });
    expect(refund.id).toMatch(/^re_[0-9a-f]{24}$/);
    const over = await postRefund({ charge: id, amount: amount - 199 });
    expect([over.status, errorCode(over.body)]).toEqual([400, 'amount_too_large']);
    expect((await postRefund({ charge: id, amount: amount - 200 })).status).toBe(201);

    const read = await fetch(`${refundsUrl}/${refund.id}`, { headers: serviceHeaders(sandbox) });
    expect(await read.json()).toEqual(refund);
    const stranger = await fetch(`${refundsUrl}/${refund.id}`, { headers: serviceHeaders(sandbox, { 'merchant-account': 'someone_else' }) });
    expect(stranger.status).toBe(404);
    const ledger = (await sandbox.service.ledger()).filter((entry) => entry.operation === 'refund' && entry.charge.id === id);
    expect(ledger.map((entry) => entry.refund?.amount)).toEqual([200, amount - 200]);
  });

  it('refuse a hold (released, not refunded), an unknown charge and a bad body', async () => {
    const hold = await charge(false);
    const refused = await postRefund({ charge: hold.id, amount: 1 });
    expect([refused.status, errorCode(refused.body)]).toEqual([409, 'invalid_state']);
    const missing = await postRefund({ charge: 'ch_missing', amount: 1 });
    expect([missing.status, errorCode(missing.body)]).toEqual([404, 'resource_missing']);
    for (const body of [{ charge: hold.id }, { charge: hold.id, amount: 0 }, { charge: hold.id, amount: 1, reason: 'because' }]) {
      expect((await postRefund(body)).status).toBe(400);
    }
  });

  it('refund once per Idempotency-Key, even when the reply was lost or the service failed first', async () => {
    const { id } = await charge();
    const key = { 'idempotency-key': `refund-${id}` };
    const failed = await postRefund({ charge: id, amount: 100 }, { ...key, 'sandbox-fault': 'error' });
    expect(failed.status).toBe(500);
    await expect(postJson(refundsUrl, { charge: id, amount: 100 }, serviceHeaders(sandbox, { ...key, 'sandbox-fault': 'lost_reply' }))).rejects.toThrow();
    const replay = await postRefund({ charge: id, amount: 100 }, key);
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(errorCode((await postRefund({ charge: id, amount: 101 }, key)).body)).toBe('idempotency_key_reused');
    expect((await sandbox.service.ledger()).filter((entry) => entry.operation === 'refund' && entry.charge.id === id)).toHaveLength(1);
  });

  it('accept a refund of the refund-fails card and answer it failed, with its code: nothing is given back, each one fails', async () => {
    const { id, amount } = await charge(true, '4000000000005126');
    const first = await postRefund({ charge: id, amount: 300 });
    expect(first.status).toBe(201);
    const refund = ServiceRefund.parse(first.body);
    expect(refund).toMatchObject({ charge: id, amount: 300, status: 'failed', failure_code: 'expired_or_canceled_card' });
    const read = await fetch(`${refundsUrl}/${refund.id}`, { headers: serviceHeaders(sandbox) });
    expect(await read.json()).toEqual(refund);
    // A failed refund takes nothing from what is left: the whole amount may still be asked, and fails too.
    expect((await postRefund({ charge: id, amount })).body).toMatchObject({ status: 'failed', failure_code: 'expired_or_canceled_card' });
    const ledger = (await sandbox.service.ledger()).filter((entry) => entry.operation === 'refund' && entry.charge.id === id);
    expect(ledger.map((entry) => entry.refund?.status)).toEqual(['failed', 'failed']);
  });
});
