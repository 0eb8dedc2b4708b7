/**
 * The soak's express checkout (`npm run soak -- --express`, docs/reliability.md): every session is priced by
 * the merchant's quote endpoint, a soak-local one (testing/quote-endpoint.ts answering with zone-quotes.ts's
 * prices, signatures checked). Each shopper's sheet opens (INITIALIZE) and takes 1 to 4 changes (the
 * address, the option, a promotion code, good or not), some made while an earlier one is still being priced
 * and sent the faster way, so that the server stores them out of order, as a real sheet's can arrive. Each is
 * relayed as the widget relays it (POST /api/sessions/{id}/quote) and settled as the sandbox sheet and the
 * widget settle it (only the newest change's reply applies; its quote is the one the payment names). The
 * shopper pays once the sheet may pay; some first with an older quote, which must be refused; a payment
 * refused as not for the latest quote is priced again (one more change) and paid again. The audit holds
 * every charge at the payment service to the quote it paid and to the total the merchant priced it at.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreatedSession, IntermediatePaymentData, QuoteReply, Session } from '../contracts';
import { checkSignature } from '../contracts/webhook-signature';
import type { LedgerEntry } from '../sandbox';
import { redactedAddress } from '../sandbox/pay-js/express';
import { walletShippingAddresses } from '../sandbox/shipping-addresses';
import { idempotencyKeyFor } from '../server/store/attempts';
import type { SheetChoices, ShopClient } from './child-server';
import { startQuoteEndpoint } from './quote-endpoint';
import { ZONE_COUNTRIES, zoneDelivers, ZONE_OPENING_OPTION, ZONE_PROMOTION_CODE, zoneQuote } from './zone-quotes';

/** Shares of the shoppers' behaviour in the sheet. */
const CHANGES = { most: 4, concurrentShare: 0.3, addressShare: 0.4, optionShare: 0.35, goodCodeShare: 0.7 };
/** An earlier change, overtaken by the one made while it is in flight, reaches the server up to this much later. */
const OVERTAKEN_BY_MS = 25;
/** Of the payments made alone, the share first sent with an older quote of the sheet. */
const STALE_SHARE = 0.15;
/** How many more changes a shopper makes for a sheet that may not pay (an error stands), or after a payment refused as stale. */
const MAX_REPRICES = 3;
/** A code the merchant does not take: the sheet shows it refused, and the rest of the quote stands. */
const REFUSED_CODE = 'EXPIRED5';
/** The sandbox wallet's shipping addresses in the countries the sessions ship to; the merchant refuses one of them. */
const ADDRESSES = walletShippingAddresses.filter((choice) => (ZONE_COUNTRIES as readonly string[]).includes(choice.address.countryCode));
const SERVED = ADDRESSES.filter((choice) => zoneDelivers(choice.address.countryCode));

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

/** The soak's merchant endpoint: what it priced, by the quote's id, for the audit. */
export interface SoakQuoteEndpoint {
  readonly url: string;
  /** The total of each quote priced in the sheet, by its id (the request's, which the quote is stored under). */
  readonly totals: ReadonlyMap<string, number>;
  /** Requests by stage, and those whose signature did not verify with the endpoint's secret (must be none). */
  readonly requests: { sheet: number; authorization: number; unsigned: number };
  /** PUT /api/quote_endpoint as the merchant: from then on requests are signed with the secret it answers. */
  register(shop: ShopClient): Promise<void>;
  close(): Promise<void>;
}

export async function startSoakQuoteEndpoint(): Promise<SoakQuoteEndpoint> {
  const totals = new Map<string, number>();
  const requests = { sheet: 0, authorization: 0, unsigned: 0 };
  let secret: string | undefined;
  const endpoint = await startQuoteEndpoint(
    (request, received) => {
      if (secret === undefined || received?.signature === undefined || checkSignature(received.signature, received.body, secret) !== 'verified') {
        requests.unsigned++;
        return { status: 401, json: { error: 'the signature does not verify' } };
      }
      requests[request.stage]++;
      const { answer, total } = zoneQuote(request);
      if (request.stage === 'sheet' && total !== undefined) totals.set(request.id, total);
      return { json: answer };
    },
    { keepRequests: false },
  );
  return {
    url: endpoint.url,
    totals,
    requests,
    async register(shop) {
      secret = (await shop.setQuoteEndpoint(endpoint.url)).secret;
    },
    close: () => endpoint.close(),
  };
}

/** What the sheets and payments of an express soak did. */
export interface ExpressCounts {
  /** Relays answered 200, by what the update said: a price; a price with a code refused beside it; the address refused; the endpoint failed (OTHER_ERROR). */
  relays: { priced: number; codeRefused: number; addressRefused: number; failed: number };
  /** Changes made while an earlier one was still being priced. */
  concurrent: number;
  /** Replies to a change that was no longer the newest when they came: the sheet ignores them. */
  superseded: number;
  /** Payments first sent with an older quote of the sheet, on purpose: refused with 409 quote_mismatch, or not (must be none). */
  stale: { sent: number; refused: number; charged: string[] };
  /** Payments refused 409 quote_mismatch without being stale on purpose (an earlier change stored after the newest), priced again and paid again. */
  repriced: number;
  /** Shoppers who left without a sheet that may pay. */
  gaveUp: number;
}

export const newExpressCounts = (): ExpressCounts => ({
  relays: { priced: 0, codeRefused: 0, addressRefused: 0, failed: 0 },
  concurrent: 0,
  superseded: 0,
  stale: { sent: 0, refused: 0, charged: [] },
  repriced: 0,
  gaveUp: 0,
});

/** A payment's answer as the soak reads it: the outcome's status, or the error's code; undefined when a crash cut it. */
export type PayAnswer = { status?: string; code?: string } | undefined;

/** What a payment of an express checkout carries: the sheet's choices, which the wallet returns, and the quote it names. */
export interface SheetPayment {
  choices: SheetChoices;
  quoteId: string;
}

/** The soak's POST /pay (timed and counted, retried after a 503), with the sheet's payment. */
export type ExpressPay = (session: CreatedSession, card: string, raced: boolean, sheet: SheetPayment) => Promise<PayAnswer>;

/** A checkout the shopper pays, as the soak drives both kinds. */
export interface Checkout {
  /** Pays with `card`; `raced` when a second click pays beside it. */
  pay(card: string, raced: boolean): Promise<PayAnswer>;
  /** The shopper comes back to pay again (after a decline): false when it cannot. */
  reopen(): Promise<boolean>;
}

type Change = { trigger: 'INITIALIZE' } | { trigger: 'SHIPPING_ADDRESS'; addressId: string } | { trigger: 'SHIPPING_OPTION'; optionId: string } | { trigger: 'OFFER'; code: string };

/** The sheet as the shopper sees it, and the quote the widget keeps for the payment (web/checkout/quote-decide.ts). */
interface Sheet {
  addressId: string;
  optionId: string;
  options: string[];
  codes: string[];
  /** An error stands: the sheet lets nobody pay until a change is answered. */
  error: boolean;
  /** The newest change's number, and whether it was made with no other in flight (then the server stored it last). */
  changes: number;
  newestAlone: boolean;
  inFlight: Promise<void>[];
  quoteId: string | undefined;
  /** Every quote the sheet was handed, oldest first. */
  quotes: string[];
}

/** The sheet as Google's opens it: the first address, the session's option, no code. */
const openingSheet = (): Sheet => ({ addressId: ADDRESSES[0]!.id, optionId: ZONE_OPENING_OPTION.id, options: [ZONE_OPENING_OPTION.id], codes: [], error: false, changes: 0, newestAlone: true, inFlight: [], quoteId: undefined, quotes: [] });

/** A change the shopper might make now: another address (the refused one too), another option, a code. */
function randomChange(sheet: Sheet): Change {
  const roll = Math.random();
  const otherOptions = sheet.options.filter((id) => id !== sheet.optionId);
  if (roll < CHANGES.addressShare || (roll < CHANGES.addressShare + CHANGES.optionShare && otherOptions.length === 0)) {
    return { trigger: 'SHIPPING_ADDRESS', addressId: pick(ADDRESSES.filter((choice) => choice.id !== sheet.addressId)).id };
  }
  if (roll < CHANGES.addressShare + CHANGES.optionShare) return { trigger: 'SHIPPING_OPTION', optionId: pick(otherOptions) };
  const good = !sheet.codes.includes(ZONE_PROMOTION_CODE) && Math.random() < CHANGES.goodCodeShare;
  return { trigger: 'OFFER', code: good ? ZONE_PROMOTION_CODE : REFUSED_CODE };
}

/** What Google hands onPaymentDataChanged for the sheet once `change` is made (sandbox/pay-js/express.ts's `change`). */
function changed(sheet: Sheet, change: Change): IntermediatePaymentData {
  if (change.trigger === 'SHIPPING_ADDRESS') sheet.addressId = change.addressId;
  if (change.trigger === 'SHIPPING_OPTION') sheet.optionId = change.optionId;
  const address = ADDRESSES.find((choice) => choice.id === sheet.addressId)!.address;
  return {
    callbackTrigger: change.trigger,
    shippingAddress: redactedAddress(address),
    shippingOptionData: { id: sheet.optionId },
    offerData: { redemptionCodes: change.trigger === 'OFFER' ? [...sheet.codes, change.code] : [...sheet.codes] },
  };
}

/** The newest change's reply, applied as the sheet applies it; the widget keeps its quote. */
function settle(sheet: Sheet, { quote_id, update }: QuoteReply): void {
  sheet.error = update.error !== undefined;
  if (update.newShippingOptionParameters) {
    sheet.options = update.newShippingOptionParameters.shippingOptions.map((option) => option.id);
    sheet.optionId = update.newShippingOptionParameters.defaultSelectedOptionId ?? sheet.options[0]!;
  }
  if (update.newOfferInfo) sheet.codes = update.newOfferInfo.offers.map((offer) => offer.redemptionCode);
  sheet.quoteId = quote_id ?? undefined;
  if (quote_id) sheet.quotes.push(quote_id);
}

function countReply(counts: ExpressCounts, { quote_id, update }: QuoteReply): void {
  const reason = update.error?.reason;
  if (quote_id && reason === 'OFFER_INVALID') counts.relays.codeRefused++;
  else if (quote_id) counts.relays.priced++;
  else if (reason === 'SHIPPING_ADDRESS_UNSERVICEABLE') counts.relays.addressRefused++;
  else counts.relays.failed++;
}

/**
 * The express checkout of `session`: its sheet opened and changed, until it may pay (else undefined: the shopper
 * left). `paidWith` hears every quote a payment names as the latest, for the audit.
 */
export async function openExpressCheckout(shop: ShopClient, session: CreatedSession, pay: ExpressPay, counts: ExpressCounts, paidWith: (quoteId: string) => void): Promise<Checkout | undefined> {
  let sheet = openingSheet();

  /** Relays `change` once `delayMs` have passed (a slower way to the server), and settles the reply if it is still the newest. */
  function relay(change: Change, delayMs = 0): Promise<void> {
    const data = changed(sheet, change);
    const number = ++sheet.changes;
    sheet.newestAlone = sheet.inFlight.length === 0;
    const current = sheet;
    const relayed = (async () => {
      if (delayMs > 0) await sleep(delayMs);
      const reply = await shop.quote(session, data);
      countReply(counts, reply);
      if (number === current.changes) settle(current, reply);
      else counts.superseded++;
    })();
    sheet.inFlight.push(relayed);
    void relayed.finally(() => current.inFlight.splice(current.inFlight.indexOf(relayed), 1)).catch(() => undefined);
    return relayed;
  }

  const settled = () => Promise.all([...sheet.inFlight]);

  /** The sheet opens, and the shopper makes 1 to CHANGES.most changes, some while the one before is in flight. */
  async function choose(changes: number): Promise<void> {
    await relay({ trigger: 'INITIALIZE' });
    for (let i = 0; i < changes; i++) {
      const overtaken = i + 1 < changes && Math.random() < CHANGES.concurrentShare;
      // The next change is made before this one is answered, and reaches the server first.
      const relayed = relay(randomChange(sheet), overtaken ? 1 + Math.random() * OVERTAKEN_BY_MS : 0);
      if (overtaken) counts.concurrent++;
      else await relayed;
    }
    await settled();
  }

  /** Once more to a served address, alone, until the sheet may pay: false when it still may not. */
  async function reprice(): Promise<boolean> {
    for (let tries = 0; tries < MAX_REPRICES && (sheet.error || sheet.quoteId === undefined || !sheet.newestAlone); tries++) {
      await relay({ trigger: 'SHIPPING_ADDRESS', addressId: pick(SERVED.filter((choice) => choice.id !== sheet.addressId)).id });
    }
    return !sheet.error && sheet.quoteId !== undefined;
  }

  const mayPay = () => !sheet.error && sheet.quoteId !== undefined;

  async function open(changes: number): Promise<boolean> {
    sheet = openingSheet();
    await choose(changes);
    if (mayPay() || (await reprice())) return true;
    counts.gaveUp++;
    return false;
  }

  const choices = (): SheetChoices => ({ shippingAddressId: sheet.addressId, shippingOptionId: sheet.optionId, redemptionCodes: [...sheet.codes] });

  /** A quote the sheet was handed before the newest, while the newest is the server's latest for sure. */
  const staleQuote = () => (sheet.newestAlone ? sheet.quotes.filter((id) => id !== sheet.quoteId).at(-1) : undefined);

  async function payStale(card: string, quoteId: string): Promise<void> {
    counts.stale.sent++;
    const answer = await pay(session, card, false, { choices: choices(), quoteId });
    if (answer?.code === 'quote_mismatch') counts.stale.refused++;
    else if (answer?.status) counts.stale.charged.push(`${session.id} paid with the older quote ${quoteId} (${answer.status})`);
  }

  if (!(await open(1 + Math.floor(Math.random() * CHANGES.most)))) return undefined;
  return {
    async pay(card, raced) {
      const stale = raced ? undefined : staleQuote();
      if (stale && Math.random() < STALE_SHARE) await payStale(card, stale);
      for (let reprices = 0; ; reprices++) {
        const quoteId = sheet.quoteId!;
        paidWith(quoteId);
        const answer = await pay(session, card, raced, { choices: choices(), quoteId });
        // A double click's two payments share the sheet: neither changes it.
        if (answer?.code !== 'quote_mismatch' || raced || reprices === MAX_REPRICES) return answer;
        counts.repriced++;
        // As the widget tells the shopper: review your choices and pay again.
        sheet.newestAlone = false;
        if (!(await reprice())) return answer;
      }
    },
    // Google's sheet opens afresh: INITIALIZE, and perhaps a change or two.
    reopen: () => open(Math.floor(Math.random() * 3)),
  };
}

/**
 * Every charge of a quoted session held to its quote: the latest attempt's charge is the session's `amount_charged`,
 * which is its `quote.total`, which is what the merchant priced that quote at, for a quote its shopper paid with;
 * an earlier attempt's charge is the total of a quote its shopper paid with. Lines for those that are not (must be none).
 */
export function auditQuotedCharges(
  sessions: readonly Session[],
  ledger: readonly LedgerEntry[],
  quotes: { totals: ReadonlyMap<string, number>; paidWith: ReadonlyMap<string, ReadonlySet<string>> },
): { charges: number; offQuote: string[] } {
  const attempts = new Map<string, { session: Session; attemptNo: number }>();
  for (const session of sessions) for (let attemptNo = 1; attemptNo <= session.attempts; attemptNo++) attempts.set(idempotencyKeyFor(session.id, attemptNo), { session, attemptNo });
  const offQuote: string[] = [];
  let charges = 0;
  for (const { charge, idempotency_key } of ledger.filter((entry) => entry.operation === 'charge')) {
    // A charge of no attempt is the ledger audit's to report (lost).
    const attempt = idempotency_key === null ? undefined : attempts.get(idempotency_key);
    if (!attempt) continue;
    charges++;
    const { session, attemptNo } = attempt;
    const paid = quotes.paidWith.get(session.id) ?? new Set<string>();
    if (attemptNo < session.attempts) {
      if (![...paid].some((id) => quotes.totals.get(id) === charge.amount)) offQuote.push(`${charge.id}: attempt ${attemptNo} of ${session.id} charged ${charge.amount}, the total of no quote its shopper paid with`);
      continue;
    }
    const { quote } = session;
    const priced = quote ? quotes.totals.get(quote.id) : undefined;
    if (!quote) offQuote.push(`${charge.id}: ${session.id} charged ${charge.amount}, and its view names no quote`);
    else if (charge.amount !== quote.total || session.amount_charged !== quote.total || priced !== quote.total || !paid.has(quote.id)) {
      offQuote.push(`${charge.id}: charged ${charge.amount}; ${session.id}'s quote ${quote.id} totals ${quote.total}, amount_charged ${session.amount_charged}, the merchant priced it at ${priced ?? 'nothing'}${paid.has(quote.id) ? '' : ', and no payment named it'}`);
    }
  }
  return { charges, offQuote };
}
