/**
 * The sandbox service's kept payment methods, called as a payment service client would
 * (docs/service-conventions.md#kept-payment-methods): a card kept from the charge that was made to keep
 * it, one per card and customer by its fingerprint; merchant-initiated charges checked for the network
 * reference and declined by the saved-card test cards; detaching; and the network's card updates.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Charge, KeptPaymentMethod, PaymentMethodUpdateList } from '../contracts';
import { networkTokenCharge, postCharge, postJson, serviceHeaders, startSandbox } from '../testing/sandbox';

const sandbox = await startSandbox();
afterAll(() => sandbox.close());

const CRYPTOGRAM = { eci: '05', cryptogram: 'AgAAAAAAAIR8CQrXcIhbQAAAAAA=' };
const api = (path: string) => `${sandbox.baseUrl}/service/api/v1${path}`;
const errorCode = (body: unknown) => (body as { error: { code: string } }).error.code;
const keeping = { initiator: 'customer', usage: 'recurring' } as const;

async function charge(body: unknown): Promise<Charge> {
  const reply = await postCharge(sandbox, body);
  expect(reply.status, reply.text).toBe(201);
  return Charge.parse(reply.body);
}

/** A customer-initiated charge of `pan` that keeps the card: with its cryptogram (a device token), or without (the card on file). */
const keepingCharge = (pan: string, withCryptogram = true, amount = 500) =>
  charge({ ...networkTokenCharge(pan, withCryptogram ? { three_ds: CRYPTOGRAM } : {}), amount, stored_credential: keeping });

async function keep(chargeId: string, customer = 'cus_alice'): Promise<KeptPaymentMethod> {
  const reply = await postJson(api('/payment_methods'), { charge: chargeId, customer }, serviceHeaders(sandbox));
  expect(reply.status, reply.text).toBe(201);
  return KeptPaymentMethod.parse(reply.body);
}

const merchantCharge = (method: KeptPaymentMethod, extra: Record<string, unknown> = {}) =>
  postCharge(sandbox, {
    source_data: { type: 'payment_method', payment_method: method.id },
    amount: 900,
    currency: 'eur',
    stored_credential: { initiator: 'merchant', reason: 'subscription', network_transaction_reference: method.network_transaction_reference },
    ...extra,
  });

describe('keeping a card', () => {
  it('keeps the card of a charge made to keep it, with the charge network reference; the same card again for the customer is the same one, updated', async () => {
    const first = await keepingCharge('4242424242424242');
    expect(first.network_transaction_reference).toMatch(/^\d{15}$/);
    const kept = await keep(first.id);
    expect(kept).toMatchObject({ object: 'payment_method', customer: 'cus_alice', status: 'active', network_transaction_reference: first.network_transaction_reference, card: { last4: '4242', auth_method: 'CRYPTOGRAM_3DS' } });
    expect(kept.id).not.toBe(first.payment_method);

    // The same number as the card on file: the same fingerprint, so the same kept payment method, with the newer charge's card and reference.
    const again = await keepingCharge('4242424242424242', false);
    const rekept = await keep(again.id);
    expect(rekept).toMatchObject({ id: kept.id, fingerprint: kept.fingerprint, network_transaction_reference: again.network_transaction_reference, card: { auth_method: 'PAN_ONLY' } });
    // Another customer's is another payment method; another card another fingerprint.
    expect((await keep(again.id, 'cus_bob')).id).not.toBe(kept.id);
    expect((await keep((await keepingCharge('5555555555554444')).id)).fingerprint).not.toBe(kept.fingerprint);
  });

  it('an account verification (amount 0) keeps a card without charging it; 0 is refused for anything else', async () => {
    const verification = await keepingCharge('4111111111111111', true, 0);
    expect(verification).toMatchObject({ status: 'succeeded', amount: 0, amount_captured: 0, network_transaction_reference: expect.stringMatching(/^\d{15}$/) });
    expect((await keep(verification.id)).status).toBe('active');
    const plain = await postCharge(sandbox, { ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), amount: 0 });
    expect([plain.status, errorCode(plain.body)]).toEqual([400, 'invalid_request']);
    const held = await postCharge(sandbox, { ...networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }), amount: 0, capture: false, stored_credential: keeping });
    expect([held.status, errorCode(held.body)]).toEqual([400, 'invalid_request']);
  });

  it('refuses to keep the card of a charge not made to keep it, a declined one, or another merchant\'s', async () => {
    const plain = await charge(networkTokenCharge('4111111111111111', { three_ds: CRYPTOGRAM }));
    const notKeeping = await postJson(api('/payment_methods'), { charge: plain.id, customer: 'cus_alice' }, serviceHeaders(sandbox));
    expect([notKeeping.status, errorCode(notKeeping.body)]).toEqual([400, 'invalid_request']);
    const declined = await keepingCharge('4000000000000002');
    expect(declined).toMatchObject({ status: 'failed', network_transaction_reference: null });
    const refused = await postJson(api('/payment_methods'), { charge: declined.id, customer: 'cus_alice' }, serviceHeaders(sandbox));
    expect([refused.status, errorCode(refused.body)]).toEqual([409, 'invalid_state']);
    const kept = await keepingCharge('4111111111111111');
    const stranger = await postJson(api('/payment_methods'), { charge: kept.id, customer: 'cus_alice' }, serviceHeaders(sandbox, { 'merchant-account': 'another_merchant' }));
    expect([stranger.status, errorCode(stranger.body)]).toEqual([404, 'resource_missing']);
  });
});

describe('merchant-initiated charges', () => {
  it('charge a kept card without 3-D Secure, naming the reference of the charge it was kept from', async () => {
    // A card on file (PAN_ONLY) charged with `authentication: required`: with the shopper, it would need 3-D Secure; without, it cannot.
    const method = await keep((await keepingCharge('4111111111111111', false)).id);
    expect(method.card.auth_method).toBe('PAN_ONLY');
    const reply = await merchantCharge(method, { authentication: 'required' });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body).toMatchObject({ status: 'succeeded', source_type: 'payment_method', payment_method: method.id, network_transaction_reference: expect.stringMatching(/^\d{15}$/) });
    expect((reply.body as Charge).network_transaction_reference).not.toBe(method.network_transaction_reference);
  });

  it('are refused on a payment method that was not kept, with another reference, or once detached', async () => {
    const first = await keepingCharge('4111111111111111');
    const method = await keep(first.id, 'cus_refused');
    const transient = await merchantCharge({ ...method, id: first.payment_method ?? '' });
    expect([transient.status, errorCode(transient.body)]).toEqual([400, 'invalid_stored_credential']);
    const wrongReference = await merchantCharge(method, { stored_credential: { initiator: 'merchant', reason: 'subscription', network_transaction_reference: '000000000000000' } });
    expect([wrongReference.status, errorCode(wrongReference.body)]).toEqual([400, 'invalid_stored_credential']);
    const onWallet = await postCharge(sandbox, { ...networkTokenCharge('4111111111111111'), stored_credential: { initiator: 'merchant', reason: 'unscheduled', network_transaction_reference: method.network_transaction_reference } });
    expect([onWallet.status, errorCode(onWallet.body)]).toEqual([400, 'invalid_request']);

    const detached = await postJson(api(`/payment_methods/${method.id}/detach`), {}, serviceHeaders(sandbox));
    expect(detached.body).toMatchObject({ id: method.id, status: 'detached' });
    const afterDetach = await merchantCharge(method);
    expect([afterDetach.status, errorCode(afterDetach.body)]).toEqual([400, 'payment_method_detached']);
    // Keeping the card again makes a new payment method: a detached one is gone for good.
    expect((await keep((await keepingCharge('4111111111111111')).id, 'cus_refused')).id).not.toBe(method.id);
  });

  it.each([
    ['4000000000000358', 'insufficient_funds'],
    ['4000000000000374', 'authentication_required'],
    ['4000000000000382', 'expired_card'],
  ])('%s is charged and kept when the shopper pays, and declines the merchant\'s charges with %s', async (pan, code) => {
    const first = await keepingCharge(pan, false);
    expect(first.status).toBe('succeeded');
    const method = await keep(first.id);
    const reply = await merchantCharge(method);
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ status: 'failed', failure_code: code, network_transaction_reference: null });
  });
});

describe('card updates', () => {
  it('the network\'s update of a kept card is in the merchant\'s feed, and its issuer takes the merchant\'s charges again', async () => {
    const merchant = { 'merchant-account': 'merchant_updates' };
    const first = Charge.parse((await postCharge(sandbox, { ...networkTokenCharge('4000000000000382', { three_ds: CRYPTOGRAM }), stored_credential: keeping }, serviceHeaders(sandbox, merchant))).body);
    const method = KeptPaymentMethod.parse((await postJson(api('/payment_methods'), { charge: first.id, customer: 'cus_alice' }, serviceHeaders(sandbox, merchant))).body);
    const feed = async (after = 0) => PaymentMethodUpdateList.parse(await (await fetch(api(`/payment_method_updates?after=${after}`), { headers: serviceHeaders(sandbox, merchant) })).json());
    expect((await feed()).data).toEqual([]);

    const updated = await postJson(`${sandbox.baseUrl}/service/test_helpers/payment_methods/${method.id}/card_update`, { exp_month: 4, exp_year: 2034, last4: '0390' }, serviceHeaders(sandbox, merchant));
    expect(updated.body).toMatchObject({ id: method.id, card: { exp_month: 4, exp_year: 2034, last4: '0390' } });
    const { data } = await feed();
    expect(data).toEqual([expect.objectContaining({ payment_method: method.id, card: expect.objectContaining({ exp_month: 4, exp_year: 2034, last4: '0390' }) })]);
    expect((await feed(data[0]?.sequence)).data).toEqual([]);
    // Another merchant's feed has none of it.
    expect(PaymentMethodUpdateList.parse(await (await fetch(api('/payment_method_updates'), { headers: serviceHeaders(sandbox) })).json()).data.some((update) => update.payment_method === method.id)).toBe(false);

    const reply = await postCharge(sandbox, { source_data: { type: 'payment_method', payment_method: method.id }, amount: 900, currency: 'eur', stored_credential: { initiator: 'merchant', reason: 'subscription', network_transaction_reference: method.network_transaction_reference } }, serviceHeaders(sandbox, merchant));
    expect(reply.body).toMatchObject({ status: 'succeeded', card: { last4: '0390', exp_year: 2034 } });
  });
});
