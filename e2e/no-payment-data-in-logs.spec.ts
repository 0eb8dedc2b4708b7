/**
 * "Payment data is never logged, never stored in clear" (DESIGN.md). This spec
 * gets a server of its own with its logs captured (info level, as in
 * production), pays through the browser in both integration modes, then reads
 * that server's log and data directory for anything a payment carried.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { DecryptionMode } from '../contracts';
import { TYPICAL_ADDRESS_ON_FILE } from '../sandbox/billing-addresses';
import { testCards } from '../sandbox/test-cards';
import { findWhole } from '../testing/find-text';
import { expect, test } from './support/fixtures';
import { type PaymentSecrets, panPatterns, paymentSecrets } from './support/payment-secrets';

test.use({ captureServerLogs: true });

const modes: readonly DecryptionMode[] = ['gateway', 'direct'];
const cardIds = ['visa-success-3ds', 'mastercard-success-pan', 'visa-decline-3ds'] as const;

/** Every file under a directory, read as bytes-as-text: a number stored in clear shows up in a SQLite page as ASCII. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [{ path, text: readFileSync(path).toString('latin1') }];
  });
}

const containing = (text: string, needles: readonly string[]) => needles.filter((needle) => text.includes(needle));

/**
 * What the billing addresses carry (personal data, docs/api.md#the-billing-address-check): the merchant's
 * file as it typed it, and the wallet's mismatching address, whose fields are nowhere else in the product.
 */
const addressParts = ['1 SANDBOX WAY', '94105-1234', '500 Elsewhere Avenue', '97201', 'Portland', '503-555-0199'];

test('no server log line or stored file contains a card number, cryptogram, token or secret', async ({ server, shop }) => {
  const logFile = server.logFile;
  if (!logFile) throw new Error('captureServerLogs gives the server a log file');
  const secrets: PaymentSecrets[] = [];
  const credentials: string[] = [];
  const paidSessions: string[] = [];

  for (const mode of modes) {
    for (const cardId of cardIds) {
      const { checkout, session, app } = await shop.open({ app: { decryption_mode: mode, google_merchant_id: '01234567890123456789' }, session: { billing_address_on_file: TYPICAL_ADDRESS_ON_FILE } });
      const payment = await checkout.payWith(cardId, 'mismatching');
      expect(payment.payStatus).toBe(200);
      await expect(checkout.widget).toHaveAttribute('data-checkout-state', /^(paid|declined)$/);
      secrets.push(await paymentSecrets(server, payment, app.appId));
      credentials.push(session.client_secret, app.secretKey);
      paidSessions.push(session.id);
    }
  }
  credentials.push(server.sandbox?.serviceSecretKey ?? '');

  const log = readFileSync(logFile, 'utf8');
  const lines = log.split('\n').filter(Boolean);

  await test.step('the log is the real thing: every payment request is in it', () => {
    const payLines = lines.map((line) => JSON.parse(line) as { req?: { path?: string }; res?: { statusCode?: number } }).filter((entry) => entry.req?.path?.endsWith('/pay'));
    expect(payLines.map((entry) => entry.req?.path)).toEqual(paidSessions.map((id) => `/api/sessions/${id}/pay`));
    expect(secrets.filter((s) => s.cryptogram).length, 'the 3-D Secure cards carried cryptograms to look for').toBe(4);
  });

  await test.step('no card number of the test-card table, in any form', () => {
    const found = testCards.flatMap((card) => panPatterns(card.number).filter((pattern) => pattern.test(log)).map((pattern) => `${card.number} as ${pattern}`));
    expect(found).toEqual([]);
  });

  await test.step('no cryptogram or encrypted token value', () => {
    expect(containing(log, secrets.flatMap((s) => [...(s.cryptogram ? [s.cryptogram] : []), ...s.tokenValues]))).toEqual([]);
  });

  await test.step('no client secret or secret key', () => {
    expect(containing(log, credentials)).toEqual([]);
    // Also any key this run did not hand out, by shape.
    expect(log.match(/sk_(test|live|sandbox)_[A-Za-z0-9_-]+|cs_[A-Za-z0-9_-]+_secret_[A-Za-z0-9_-]+/g) ?? []).toEqual([]);
  });

  await test.step('no billing address, on file or from the wallet', () => {
    expect(findWhole(log, addressParts)).toEqual([]);
  });

  await test.step("the backend's store keeps the billing addresses sealed (the sandbox payment service's own files aside)", () => {
    const backendFiles = filesUnder(server.dataDir).filter((file) => !file.path.startsWith(join(server.dataDir, 'sandbox')));
    expect(backendFiles.some((file) => file.path.endsWith('checkout.db'))).toBe(true);
    expect(backendFiles.flatMap((file) => findWhole(file.text, addressParts).map((part) => `${file.path}: ${part}`))).toEqual([]);
  });

  await test.step('nothing in the data directory stores a card number or cryptogram in clear', () => {
    const stored = filesUnder(server.dataDir).flatMap((file) => [
      ...containing(file.text, secrets.map((s) => s.pan)).map((pan) => `${file.path}: ${pan}`),
      ...containing(file.text, secrets.flatMap((s) => (s.cryptogram ? [s.cryptogram] : []))).map((c) => `${file.path}: cryptogram ${c}`),
    ]);
    expect(stored).toEqual([]);
  });
});
