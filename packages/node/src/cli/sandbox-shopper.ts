/**
 * The shopper of `wallet-checkout trigger`: pays a session as the widget does with the sandbox
 * wallet (sandbox/wallet-api.ts), over the same public calls: the session's view with its client
 * secret, a test card's PaymentData minted by the sandbox wallet where the view says its script is,
 * then the public pay endpoint. Nothing here exists in production: a session whose wallet is not
 * the sandbox's is refused before any card is asked for.
 */
import type { PayReply, PublicSession } from '../../../../contracts/sessions';
import type { PaymentData } from '../../../../contracts/google-pay';
import type { CreatedSession } from '../types';
import { Refusal } from './connection';

const TIMEOUT_MS = 30_000;

async function call<T>(url: string, init: { method: 'GET' | 'POST'; bearer?: string; body?: object }): Promise<T> {
  const response = await fetch(url, {
    method: init.method,
    headers: { accept: 'application/json', ...(init.bearer && { authorization: `Bearer ${init.bearer}` }), ...(init.body && { 'content-type': 'application/json' }) },
    ...(init.body && { body: JSON.stringify(init.body) }),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Refusal(`${init.method} ${new URL(url).pathname} answered ${response.status} with a body that is not JSON`);
  }
  if (!response.ok) {
    const error = (parsed as { error?: { code?: string; message?: string } }).error;
    throw new Refusal(`${init.method} ${new URL(url).pathname} answered ${response.status} ${error?.code ?? ''}: ${error?.message ?? 'no error message'}`);
  }
  return parsed as T;
}

/** The widget's view of the session: handed over at creation, or read with the client secret (a platform app's). */
async function publicViewOf(baseUrl: string, session: CreatedSession): Promise<PublicSession> {
  return session.public_view ?? call<PublicSession>(`${baseUrl}/api/sessions/${encodeURIComponent(session.id)}/public`, { method: 'GET', bearer: session.client_secret });
}

/** Where the sandbox wallet's API is for this session, or the refusal a host without it earns. */
function sandboxWalletOf(view: PublicSession, baseUrl: string): string {
  if (view.wallet.environment !== 'SANDBOX' || !view.wallet.sandbox_script) {
    throw new Refusal(
      `${baseUrl} is not in sandbox mode for this application (its wallet is Google Pay ${view.wallet.environment}): ` +
        `trigger pays with the sandbox wallet's test cards, which only a sandbox host accepts. Session ${view.id} was created and left unpaid; it expires by itself.`,
    );
  }
  return `${new URL(view.wallet.sandbox_script).origin}/sandbox/wallet`;
}

/**
 * Pays `session` with the sandbox wallet's test card `card` (GET /sandbox/wallet/cards), agreeing to
 * the terms the view shows when the session keeps the card, as the widget does.
 */
export async function payWithSandboxWallet(baseUrl: string, session: CreatedSession, card: string): Promise<PayReply> {
  const view = await publicViewOf(baseUrl, session);
  const wallet = sandboxWalletOf(view, baseUrl);
  const { payment_data } = await call<{ payment_data: PaymentData }>(`${wallet}/tokens`, { method: 'POST', body: { card_id: card, payment_data_request: view.payment_data_request } });
  const agreement = view.save_payment_method && { id: view.save_payment_method.agreement.id };
  return call<PayReply>(`${baseUrl}/api/sessions/${encodeURIComponent(session.id)}/pay`, {
    method: 'POST',
    bearer: session.client_secret,
    body: { payment_data, ...(agreement && { agreement }) },
  });
}
