/**
 * The sandbox's disputes: opened by a dispute test card's charge or on demand, read by id and by the merchant's feed of
 * changes, evidence taken once before the due date (once per Idempotency-Key), and the issuer's review decided by the
 * evidence's test words; a dispute without evidence by its due date is lost.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Charge, ServiceDispute, ServiceDisputeList } from '../contracts';
import { networkTokenCharge, postCharge, postJson, serviceHeaders, startSandbox } from '../testing/sandbox';
import { EVIDENCE_WINDOW_SECONDS } from './disputes';

let clock = Date.now();
const sandbox = await startSandbox({ now: () => clock });
afterAll(() => sandbox.close());

const service = `${sandbox.baseUrl}/service`;
const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;
const get = async (path: string, merchant?: string) => {
  const response = await fetch(`${service}${path}`, { headers: serviceHeaders(sandbox, merchant ? { 'merchant-account': merchant } : {}) });
  return { status: response.status, body: (await response.json()) as unknown };
};
const evidence = (explanation: string) => ({ explanation, billing_address_check: null, address_verification: { line1: 'match', postal_code: 'match' }, shipping: null });
const submit = (id: string, explanation: string, headers: Record<string, string> = {}) => postJson(`${service}/api/v1/disputes/${id}/evidence`, evidence(explanation), serviceHeaders(sandbox, headers));
const feed = async (after: number) => ServiceDisputeList.parse((await get(`/api/v1/disputes?changed_after=${after}&limit=100`)).body);
const lastSequence = async () => (await feed(0)).data.reduce((last, dispute) => Math.max(last, dispute.sequence), 0);

async function charge(number = '4111111111111111', capture = true): Promise<Charge> {
  return Charge.parse((await postCharge(sandbox, { ...networkTokenCharge(number), capture })).body);
}

async function opened(body: Record<string, unknown> = {}): Promise<ServiceDispute> {
  const { id } = await charge();
  const reply = await postJson(`${service}/test_helpers/disputes`, { charge: id, ...body }, serviceHeaders(sandbox));
  expect(reply.status).toBe(201);
  return ServiceDispute.parse(reply.body);
}

describe('sandbox disputes', () => {
  it("opens one at once on a dispute test card's charge, for all it captured, due a week later, and lists it in the feed", async () => {
    const before = await lastSequence();
    const paid = await charge('4000000000000259');
    expect(paid.status).toBe('succeeded');
    const changed = await feed(before);
    expect(changed.data).toHaveLength(1);
    expect(changed.data[0]).toMatchObject({ object: 'dispute', charge: paid.id, amount: paid.amount, currency: paid.currency, reason: 'fraudulent', status: 'needs_response', evidence: null });
    expect(changed.data[0]!.evidence_due_by - changed.data[0]!.created).toBe(EVIDENCE_WINDOW_SECONDS);
    expect((await get(`/api/v1/disputes/${changed.data[0]!.id}`)).body).toEqual(changed.data[0]);
    expect((await get(`/api/v1/disputes/${changed.data[0]!.id}`, 'someone_else')).status).toBe(404);
    // The other card's reason, and no dispute on an ordinary card.
    await charge('4000000000002685');
    await charge();
    expect((await feed(changed.data[0]!.sequence)).data.map((dispute) => dispute.reason)).toEqual(['product_not_received']);
  });

  it('opens one on demand, on part of a captured charge, once per charge; never on a hold or an unknown charge', async () => {
    const dispute = await opened({ reason: 'duplicate', amount: 100 });
    expect(dispute).toMatchObject({ reason: 'duplicate', amount: 100, status: 'needs_response' });
    const again = await postJson(`${service}/test_helpers/disputes`, { charge: dispute.charge }, serviceHeaders(sandbox));
    expect([again.status, errorCode(again.body)]).toEqual([409, 'invalid_state']);
    const hold = await charge('4111111111111111', false);
    const onHold = await postJson(`${service}/test_helpers/disputes`, { charge: hold.id }, serviceHeaders(sandbox));
    expect([onHold.status, errorCode(onHold.body)]).toEqual([409, 'invalid_state']);
    const unknown = await postJson(`${service}/test_helpers/disputes`, { charge: 'ch_unknown' }, serviceHeaders(sandbox));
    expect([unknown.status, errorCode(unknown.body)]).toEqual([404, 'resource_missing']);
    const tooMuch = await postJson(`${service}/test_helpers/disputes`, { charge: (await charge()).id, amount: 999_999 }, serviceHeaders(sandbox));
    expect([tooMuch.status, errorCode(tooMuch.body)]).toEqual([400, 'amount_too_large']);
  });

  it.each([
    ['winning_evidence', 'won'],
    ['losing_evidence', 'lost'],
  ])('takes evidence with %s under review, then the next read closes it %s', async (words, outcome) => {
    const dispute = await opened();
    const submitted = await submit(dispute.id, `Delivered and signed for. ${words}`);
    expect(submitted.status).toBe(200);
    const reviewed = ServiceDispute.parse(submitted.body);
    expect(reviewed).toMatchObject({ status: 'under_review', evidence: evidence(`Delivered and signed for. ${words}`) });
    expect(reviewed.sequence).toBeGreaterThan(dispute.sequence);
    const changed = (await feed(reviewed.sequence)).data.find((one) => one.id === dispute.id);
    expect(changed?.status).toBe(outcome);
  });

  it('keeps evidence without the test words under review, and takes evidence once', async () => {
    const dispute = await opened();
    expect((await submit(dispute.id, 'The shopper received the goods.')).status).toBe(200);
    const again = await submit(dispute.id, 'Another account.');
    expect([again.status, errorCode(again.body)]).toEqual([409, 'evidence_already_submitted']);
    expect(ServiceDispute.parse((await get(`/api/v1/disputes/${dispute.id}`)).body).status).toBe('under_review');
  });

  it('replays the evidence reply under its Idempotency-Key, and refuses a bad body before taking the key', async () => {
    const dispute = await opened();
    const key = { 'idempotency-key': `${dispute.id}:evidence` };
    const bad = await postJson(`${service}/api/v1/disputes/${dispute.id}/evidence`, { explanation: '' }, serviceHeaders(sandbox, key));
    expect(bad.status).toBe(400);
    const first = await submit(dispute.id, 'winning_evidence', key);
    const replay = await submit(dispute.id, 'winning_evidence', key);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(replay.text).toBe(first.text);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });

  it('loses a dispute with no evidence by its due date, and refuses evidence from then on', async () => {
    const dispute = await opened();
    clock += (EVIDENCE_WINDOW_SECONDS + 1) * 1000;
    const read = ServiceDispute.parse((await get(`/api/v1/disputes/${dispute.id}`)).body);
    expect(read.status).toBe('lost');
    expect(read.sequence).toBeGreaterThan(dispute.sequence);
    const late = await submit(dispute.id, 'winning_evidence');
    expect([late.status, errorCode(late.body)]).toEqual([409, 'evidence_past_due']);
  });

  it('refuses a feed query that is not digits, and a call without the service key', async () => {
    expect((await get('/api/v1/disputes?changed_after=-1')).status).toBe(400);
    expect((await get('/api/v1/disputes?limit=101')).status).toBe(400);
    expect((await fetch(`${service}/api/v1/disputes`)).status).toBe(401);
  });
});
