/**
 * A 3-D Secure challenge the shopper leaves open until it expires. Its own
 * file: the option below gives it a server (a worker) of its own, whose
 * sandbox keeps a challenge open for 2 s instead of 5 minutes.
 */
import { expect, test } from './support/fixtures';

test.use({ serverEnv: { SANDBOX_AUTHENTICATION_TTL_MS: '2000' } });

test('a challenge nobody completes expires, and the payment is declined as abandoned with nothing charged', async ({ shop, ledger }) => {
  const { checkout } = await shop.open();
  await checkout.payWith('visa-3ds-required-pan');
  await checkout.expectState('authenticating');
  await expect(checkout.challenge().dialog).toBeVisible();

  await checkout.expectState('declined');
  await expect(checkout.challenge().dialog).toBeHidden();
  expect((await checkout.events('checkout:decline')).map((event) => event.code)).toEqual(['authentication_abandoned']);
  expect(await checkout.merchantView()).toMatchObject({ status: 'declined', outcome: { failure_code: 'authentication_abandoned' } });
  expect((await ledger.newEntries()).map((entry) => [entry.charge.status, entry.charge.failure_code])).toEqual([['failed', 'authentication_required']]);
});
