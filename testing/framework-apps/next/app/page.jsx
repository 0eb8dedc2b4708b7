import { headers } from 'next/headers';
import Payment from './payment';

export const dynamic = 'force-dynamic';

/** The checkout page, rendered on the server: the session is created there with the secret key, and the widget's placeholder is in the HTML. */
export default async function CheckoutPage() {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  const host = process.env.CHECKOUT_HOST;
  const reply = await fetch(`${host}/api/sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${process.env.WALLET_CHECKOUT_SECRET_KEY}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify({ amount: 2400, currency: 'USD', country_code: 'US', description: 'Coffee kit' }),
    cache: 'no-store',
  });
  if (!reply.ok) throw new Error(`the checkout host answered ${reply.status} to the session's creation`);
  const session = await reply.json();
  return (
    <main data-session-id={session.id}>
      <h1>Checkout</h1>
      <Payment host={host} clientSecret={session.client_secret} sessionView={session.public_view} nonce={nonce} />
    </main>
  );
}
