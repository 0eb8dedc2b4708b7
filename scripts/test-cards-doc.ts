/**
 * docs/test-cards.md's table of cards, generated from the sandbox's own table (sandbox/test-cards.ts),
 * so that the page cannot say what the sandbox does not do: `npm run docs:test-cards` writes it
 * between the page's markers, and scripts/test-cards-doc.test.ts fails while the page is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SANDBOX_CARDHOLDER_ADDRESS } from '../sandbox/address-verification';
import { failureMeanings, type TestCard, testCards, UNANSWERED_TRIES } from '../sandbox/test-cards';

export const TEST_CARDS_PAGE = fileURLToPath(new URL('../docs/test-cards.md', import.meta.url));
const BEGIN = '<!-- The table is generated from sandbox/test-cards.ts by `npm run docs:test-cards`: edit the cards there. -->';
const END = '<!-- End of the generated table. -->';

const code = (text: string) => `\`${text}\``;

function addressRemark(card: TestCard): string {
  if (card.issuerAddress === undefined) return '';
  if (card.issuerAddress === null) return '; address verification: the issuer verifies no address';
  if (card.issuerAddress === SANDBOX_CARDHOLDER_ADDRESS) return "; address verification: the issuer has the sandbox cardholder's address ([below](#address-verification))";
  return `; address verification: the issuer has ${card.issuerAddress.line1}, ${card.issuerAddress.postal_code} on record`;
}

/** What happens after the payment: a kept card's later charges, a hold's capture, a refund, a dispute. */
function afterPaymentRemark(card: TestCard): string {
  if (card.merchantInitiated) return `; kept, every merchant-initiated charge fails with ${code(card.merchantInitiated)} ([below](#merchant-initiated-charges))`;
  if (card.captureRefusal) return `; as a hold, its capture is refused: ${code(`402 ${card.captureRefusal}`)}, the hold stays placed ([below](#outcomes-after-the-payment))`;
  if (card.refundFailure) return `; each refund is accepted and fails: ${code('status: "failed"')}, ${code(`failure_code: "${card.refundFailure}"`)} ([below](#outcomes-after-the-payment))`;
  if (card.dispute) return `; its cardholder's bank disputes the charge at once: ${code(`reason: "${card.dispute}"`)} ([disputes.md](disputes.md#test-cards))`;
  return '';
}

/** The Outcome cell: what the charge ends in, then what else the card does. */
export function outcomeOf(card: TestCard): string {
  const result = card.outcome === 'success' ? 'succeeded' : `failed (${failureMeanings[card.outcome]})`;
  const answered = card.unanswered ? `pending: the service answers ${code('503 issuer_unavailable')} to the first ${UNANSWERED_TRIES} requests under its Idempotency-Key, then ${result}` : result;
  const authenticated = card.threeDs ? `PAN_ONLY: ${code('authentication_required')} until 3-D Secure (${card.threeDs}), then ${answered}; CRYPTOGRAM_3DS: ${answered}` : answered;
  const eci = card.withoutEci ? `; its device token carries **no ${code('eciIndicator')}**` : '';
  return authenticated + eci + addressRemark(card) + afterPaymentRemark(card);
}

export function cardsTable(cards: readonly TestCard[] = testCards): string {
  const rows = cards.map((card) =>
    [code(card.number), card.network, outcomeOf(card), card.outcome === 'success' ? '—' : code(card.outcome), `${code(`${card.slug}-3ds`)}, ${code(`${card.slug}-pan`)}`].join(' | '),
  );
  return ['| Number | Network | Outcome | `failure_code` | Sandbox wallet card ids |', '|---|---|---|---|---|', ...rows.map((row) => `| ${row} |`)].join('\n');
}

/** The page with its generated table replaced by `table`. */
export function withTable(page: string, table = cardsTable()): string {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`docs/test-cards.md has lost its markers: ${BEGIN} ... ${END}`);
  return `${page.slice(0, begin + BEGIN.length)}\n\n${table}\n\n${page.slice(end)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const page = readFileSync(TEST_CARDS_PAGE, 'utf8');
  const next = withTable(page);
  writeFileSync(TEST_CARDS_PAGE, next);
  console.log(next === page ? 'docs/test-cards.md: its table was up to date' : 'docs/test-cards.md: its table written from sandbox/test-cards.ts');
}
