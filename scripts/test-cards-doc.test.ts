import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testCards } from '../sandbox/test-cards';
import { cardsTable, TEST_CARDS_PAGE, withTable } from './test-cards-doc';

const page = readFileSync(TEST_CARDS_PAGE, 'utf8');

describe("docs/test-cards.md's table of cards", () => {
  it('is the one generated from sandbox/test-cards.ts (run `npm run docs:test-cards` when this fails)', () => {
    expect(page).toBe(withTable(page));
  });

  it('has a row per card, with its failure code, its wallet ids and its 3-D Secure flow', () => {
    const rows = cardsTable().split('\n');
    for (const card of testCards) {
      const row = rows.find((line) => line.startsWith(`| \`${card.number}\` |`));
      expect(row, card.number).toBeDefined();
      expect(row).toContain(card.outcome === 'success' ? '| — |' : `| \`${card.outcome}\` |`);
      expect(row).toContain(`\`${card.slug}-3ds\`, \`${card.slug}-pan\``);
      if (card.threeDs) expect(row).toContain(`\`authentication_required\` until 3-D Secure (${card.threeDs})`);
    }
  });

  it('would be stale after a change to a card, and refuses a page without its markers', () => {
    const changed = testCards.map((card) => (card.slug === 'visa-decline' ? { ...card, outcome: 'insufficient_funds' as const } : card));
    expect(withTable(page, cardsTable(changed))).not.toBe(page);
    expect(() => withTable('# Sandbox test cards\n')).toThrow(/markers/);
  });
});
