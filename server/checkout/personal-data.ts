/**
 * The addresses of a session (the billing address on file, the wallet's billing
 * and shipping addresses) and the shopper's e-mail are personal data: sealed at rest with
 * the data cipher (DATA_ENCRYPTION_KEY, as the sealed charge requests), shown
 * only to the merchant's secret key, and erased PERSONAL_DATA_RETENTION_DAYS
 * after they were written by the reconciler's periodic pass: on the session
 * (then `{erased: true}`) and in the events that carried them. The check
 * (`billing_address_check`) is not personal data and stays.
 */
import { type AskedContact, type AskedShipping, BillingDetails, type ErasedAddress, type Event, type StoredAddress } from '../../contracts';
import type { DataCipher } from '../lib/data-cipher';
import type { Logger } from '../../common/logging';
import type { Store } from '../store';
import { openEventBody } from '../store/events';
import { purgeIdempotencyKeys } from '../../common/store/idempotency';
import { ERASED, eraseSessionAddresses, eventsWithPersonalData, replaceEventBody, sessionsWithPersonalData } from '../store/personal-data';
import { checkBillingAddress } from './address-check';

export const sealAddress = (cipher: DataCipher, address: BillingDetails): string => cipher.seal(JSON.stringify(address));

/** The address a sealed column holds; undefined when none, or erased. */
export function openAddress(cipher: DataCipher, sealed: string | null): BillingDetails | undefined {
  if (sealed === null || sealed === ERASED) return undefined;
  const opened = cipher.open(sealed);
  // A column the data key does not open is a misconfigured key: a 500 that says so, never an address made up.
  if (!opened.ok) throw new Error(`a sealed billing address does not open: ${opened.error.message}`);
  return BillingDetails.parse(JSON.parse(opened.value));
}

/** What the wallet returned of the shopper with a payment, in the shape the merchant sees (undefined: not given). */
export interface ShopperDetails {
  billing: BillingDetails | undefined;
  shipping: BillingDetails | undefined;
  email: string | undefined;
}

/** What the session asked the wallet for beyond the card (SessionRow's `shipping` and `contact`, parsed). */
export interface AskedOfShopper {
  shipping: AskedShipping | null;
  contact: AskedContact | null;
}

/**
 * A session's columns for what the wallet returned with a new payment (what it did not return: the previous
 * payment's is cleared): each sealed as the merchant sees it, only what the session asked for (a phone, an
 * e-mail, a shipping address the wallet sends unasked is dropped), and the billing address's check against
 * the address on file.
 */
export function shopperColumns(cipher: DataCipher, onFileSealed: string | null, asked: AskedOfShopper, given: ShopperDetails) {
  const billing = asked.contact?.phone ? given.billing : given.billing && withoutPhone(given.billing);
  const shipping = asked.shipping && given.shipping && (asked.shipping.phone ? given.shipping : withoutPhone(given.shipping));
  const email = asked.contact?.email ? given.email : undefined;
  return {
    billing_address_sealed: billing ? sealAddress(cipher, billing) : null,
    billing_address_check: JSON.stringify(checkBillingAddress(openAddress(cipher, onFileSealed), given.billing)),
    shipping_address_sealed: shipping ? sealAddress(cipher, shipping) : null,
    email_sealed: email ? cipher.seal(email) : null,
    email_index: email ? emailIndexOf(cipher, email) : null,
  };
}

/** The e-mail's blind index (sessions.email_index): case and surrounding spaces do not count, as the dashboard's search finds it. */
export const emailIndexOf = (cipher: DataCipher, email: string): string => cipher.blindIndex('email', email.trim().toLowerCase());

// The phone is left out by name: everything else the wallet returned is shown.
const withoutPhone = ({ phone, ...address }: BillingDetails): BillingDetails => address;

/** The sealed e-mail column as the merchant's view shows it. */
export function storedEmail(cipher: DataCipher, sealed: string | null, erasedAt: number | null): string | ErasedAddress | null {
  if (sealed === null) return null;
  if (sealed === ERASED) return erasedMark(erasedAt ?? 0);
  const opened = cipher.open(sealed);
  if (!opened.ok) throw new Error(`a sealed e-mail does not open: ${opened.error.message}`);
  return opened.value;
}

/** A sealed address column as the merchant's view shows it. */
export function storedAddress(cipher: DataCipher, sealed: string | null, erasedAt: number | null): StoredAddress | null {
  if (sealed === null) return null;
  if (sealed === ERASED) return erasedMark(erasedAt ?? 0);
  return openAddress(cipher, sealed) ?? null;
}

const erasedMark = (at: number): ErasedAddress => ({ erased: true, erased_at: at });

export interface PersonalDataDependencies {
  store: Store;
  cipher: DataCipher;
  logger: Logger;
  /** PERSONAL_DATA_RETENTION_DAYS, in ms. */
  personalDataRetentionMs: number;
}

/** Rows read per query: each erasure is a statement of its own, and a backlog is read in batches. */
const ERASURE_BATCH = 100;

export interface ErasureReport {
  sessions: number;
  events: number;
  /** Idempotency keys forgotten with the replies they kept (a session's creation carries its address on file). */
  idempotencyKeys: number;
}

/**
 * Erases the addresses written more than the retention period before `now`:
 * the sessions created before then (an address is written at creation, or by a
 * payment before the session expires, at most 7 days later), the events
 * recorded before then, and the Idempotency-Key replies kept since then. Safe
 * on several instances at once: each erasure is a compare-and-set. An event
 * this server's key does not open is left, and logged, for an operator.
 */
export async function erasePersonalData(deps: PersonalDataDependencies, now = Date.now()): Promise<ErasureReport> {
  const before = now - deps.personalDataRetentionMs;
  let sessions = 0;
  for (;;) {
    const due = await sessionsWithPersonalData(deps.store, before, ERASURE_BATCH);
    for (const id of due) if (await eraseSessionAddresses(deps.store, id, now)) sessions++;
    if (due.length < ERASURE_BATCH) break;
  }
  let events = 0;
  for (;;) {
    const due = await eventsWithPersonalData(deps.store, before, ERASURE_BATCH);
    let erasedInBatch = 0;
    for (const event of due) {
      const erased = erasedEventBody(deps.cipher, event.body, now);
      if (erased === undefined) {
        deps.logger.error({ event: event.id }, 'an event kept sealed does not open with this DATA_ENCRYPTION_KEY: its personal data cannot be erased');
        continue;
      }
      await replaceEventBody(deps.store, event.id, event.body, erased);
      erasedInBatch++;
    }
    events += erasedInBatch;
    // A full batch none of which opened would be read again and again.
    if (due.length < ERASURE_BATCH || erasedInBatch === 0) break;
  }
  const idempotencyKeys = await purgeIdempotencyKeys(deps.store, before);
  if (sessions > 0 || events > 0 || idempotencyKeys > 0) deps.logger.info({ sessions, events, idempotencyKeys }, 'personal data erased after the retention period');
  return { sessions, events, idempotencyKeys };
}

/** The event with its addresses erased, as JSON; undefined when its sealed body does not open. */
function erasedEventBody(cipher: DataCipher, sealed: string, now: number): string | undefined {
  try {
    return JSON.stringify(withoutAddresses(JSON.parse(openEventBody(cipher, sealed)) as Event, now));
  } catch {
    return undefined;
  }
}

function withoutAddresses(event: Event, now: number): Event {
  const object = event.data.object;
  if (object.object !== 'checkout_session') return event;
  const erase = <T extends string | StoredAddress>(data: T | ErasedAddress | null) => (data === null || isErased(data) ? data : erasedMark(now));
  return {
    ...event,
    data: {
      object: {
        ...object,
        billing_address_on_file: erase(object.billing_address_on_file),
        billing_address: erase(object.billing_address),
        // Events recorded before express checkout have neither.
        shipping_address: erase(object.shipping_address ?? null),
        email: erase(object.email ?? null),
      },
    },
  };
}

const isErased = (data: string | StoredAddress | ErasedAddress): data is ErasedAddress => typeof data === 'object' && 'erased' in data;

/** Whether an event's object carries personal data (an address, an e-mail), so that its body is sealed at rest. */
export const carriesPersonalData = (object: Event['data']['object']): boolean =>
  object.object === 'checkout_session' &&
  [object.billing_address_on_file, object.billing_address, object.shipping_address ?? null, object.email ?? null].some((data) => data !== null && !isErased(data));
