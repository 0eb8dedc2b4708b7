/**
 * The dashboard's "find any payment" as conditions on the sessions' list query
 * (session-list.ts): one search's terms, a payment status that may be derived
 * (contracts/payment-status.ts, written here again in SQL, tested to agree),
 * and sessions abandoned before any payment. Each term reads one index of
 * migration 0030 (or 0017's reference index, or the primary key), except a
 * description's substring, which no B-tree serves (docs/dashboard.md).
 */
import { type ExpressionBuilder, type Expression, type SqlBool, sql } from 'kysely';
import type { PaymentStatus } from '../../contracts';
import type { BackendDatabase } from './schema';

/** What one search box's text can mean (checkout/payment-search.ts reads it); a session matching any term is found. */
export interface PaymentSearch {
  sessionId?: string;
  referencePrefix?: string;
  last4?: string;
  /** The amount typed, in the minor units of each group of currencies it is exact in. */
  amounts: { amount: number; currencies: readonly string[] }[];
  /** Lower case. */
  descriptionContains?: string;
  /** The e-mail's blind index (DataCipher.blindIndex). */
  emailIndex?: string;
}

type Sessions = ExpressionBuilder<BackendDatabase, 'sessions'>;

/** `text` as a LIKE pattern matching itself (escape character `\`). */
const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, (character) => `\\${character}`);
/** `text` as a GLOB pattern matching itself: SQLite's GLOB has no escape character, a bracket holds one. */
const globLiteral = (text: string): string => text.replace(/[*?[]/g, (character) => `[${character}]`);

/**
 * A reference starting with `prefix`, as each engine reads it from an index: SQLite's GLOB is case-sensitive and
 * walks (app_id, reference) as a range; PostgreSQL's LIKE does with a text_pattern_ops index, whatever the collation.
 */
const referenceStartsWith = (postgres: boolean, prefix: string): Expression<SqlBool> =>
  postgres ? sql<SqlBool>`reference LIKE ${`${likeLiteral(prefix)}%`}` : sql<SqlBool>`reference GLOB ${`${globLiteral(prefix)}*`}`;

/** A condition on one session: one term of a search. */
export type SearchTerm = (eb: Sessions) => Expression<SqlBool>;

/**
 * The search's terms, one per index: the list query reads each as a query of its own, newest first, and merges their
 * pages (session-list.ts), since an OR of them would have either engine walk all of the app's sessions to keep its order.
 */
export function searchTerms(search: PaymentSearch, postgres: boolean): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const { sessionId, referencePrefix, last4, amounts, descriptionContains, emailIndex } = search;
  if (sessionId !== undefined) terms.push((eb) => eb('id', '=', sessionId));
  if (referencePrefix !== undefined) terms.push(() => referenceStartsWith(postgres, referencePrefix));
  if (last4 !== undefined) terms.push((eb) => eb('card_last4', '=', last4));
  // An amount in each group of currencies it is exact in is a term of its own: one equality on the index each.
  for (const { amount, currencies } of amounts) terms.push((eb) => eb.and([eb('amount', '=', amount), eb('currency', 'in', currencies)]));
  if (descriptionContains !== undefined) terms.push(() => sql<SqlBool>`lower(description) LIKE ${`%${likeLiteral(descriptionContains)}%`} ESCAPE '\\'`);
  if (emailIndex !== undefined) terms.push((eb) => eb('email_index', '=', emailIndex));
  return terms;
}

/** What was taken from the card, as contracts/payment-status.ts' takenAmount reads it; null for a session that took nothing. */
const taken = sql<number>`CASE WHEN status = 'succeeded' THEN COALESCE(amount_charged, amount) WHEN status = 'captured' THEN COALESCE(amount_captured, 0) END`;
const PAID_FROM = ['succeeded', 'captured'] as const;

/** Sessions whose payment_status (paymentStatusOf) is `status`. */
export function paymentStatusCondition(eb: Sessions, status: PaymentStatus): Expression<SqlBool> {
  switch (status) {
    case 'refunded':
      return eb.and([eb('status', 'in', PAID_FROM), eb('disputed', '=', 0), eb('amount_refunded', '>', 0), sql<SqlBool>`amount_refunded >= ${taken}`]);
    case 'partially_refunded':
      return eb.and([eb('status', 'in', PAID_FROM), eb('disputed', '=', 0), eb('amount_refunded', '>', 0), sql<SqlBool>`amount_refunded < ${taken}`]);
    case 'succeeded':
    case 'captured':
      return eb.and([eb('status', '=', status), eb('disputed', '=', 0), eb('amount_refunded', '<=', 0)]);
    case 'disputed':
      // A dispute outweighs refunds (paymentStatusOf); the mark is kept with the disputes (store/disputes.ts).
      return eb.and([eb('status', 'in', PAID_FROM), eb('disputed', '=', 1)]);
    default:
      return eb('status', '=', status);
  }
}

/** Sessions abandoned before any payment: still open, or expired, with no attempt (an expired one a card was declined on stays). */
export const notAbandoned = (eb: Sessions): Expression<SqlBool> => eb.or([eb('status', 'not in', ['open', 'expired']), eb('attempts', '>', 0)]);
