/**
 * For the deciders' unit tests: payment outcomes and sessions as the backend sends them, the
 * backend's refusals as api.ts throws them, and a flow that moves through the state table as the
 * widget does, so a test reads as the steps a shopper takes.
 */
import type { PaymentOutcome, PublicSession, SessionStatus } from '../../contracts';
import { CheckoutApiError } from './api';
import { decide } from './flow-decide';
import { type Decision, type FlowEvent, SHOWN } from './flow-events';
import { move, type View } from './states';

export const PAGE = 'https://shop.example';

const card = { network: 'VISA', last4: '4242', auth_method: 'PAN_ONLY', exp_month: 12, exp_year: 2030 } as const;
export const outcome = (status: PaymentOutcome['status'], more: Partial<PaymentOutcome> = {}): PaymentOutcome => ({
  status,
  charge_id: status === 'requires_authentication' ? null : 'ch_1',
  card,
  failure_code: status === 'declined' ? 'insufficient_funds' : null,
  failure_message: status === 'declined' ? 'The card has insufficient funds.' : null,
  ...more,
});
export const CHALLENGE = 'https://bank.example/3ds/challenge/1';

export const session = (status: SessionStatus, paid: PaymentOutcome | null = null): PublicSession => ({
  id: 'cs_1',
  status,
  amount: 1999,
  currency: 'USD',
  currency_exponent: 2,
  amount_captured: null,
  amount_display: null,
  description: null,
  merchant_name: 'Shop',
  wallet: { environment: 'TEST', sandbox_script: null },
  payment_data_request: {} as PublicSession['payment_data_request'],
  outcome: paid,
  expires_at: 0,
});

/** A refusal as api.ts throws it (status 0: the backend could not be reached). */
export const refused = (status: number, code: string) => new CheckoutApiError(status, code, `answered ${status}`);

/** The payment flow as the widget drives it: each decided view goes through the state table, which may refuse it. */
export function flowAt(view: View) {
  const state = { view, decidedInSheet: false, pageOrigin: PAGE };
  return {
    get view() {
      return state.view;
    },
    send(event: FlowEvent): Decision {
      const decision = decide(state, event);
      if (decision.view) state.view = move(state.view, decision.view);
      state.decidedInSheet = decision.decidedInSheet ?? state.decidedInSheet;
      return decision;
    },
    /** The widget now shows what the last move left: polling, hold checks and focus follow. */
    shown(before: View): Decision {
      return decide(state, { on: SHOWN, before });
    },
  };
}
