/**
 * The payments' CSV: its cells quoted as RFC 4180 says, a would-be formula
 * defused, and the store read a keyset page at a time, each page written
 * before the next is read; a reader that goes away stops the reads.
 */
import { describe, expect, it } from 'vitest';
import { newSessionRow } from '../checkout/sessions';
import type { SessionRow } from '../store/sessions';
import { CSV_HEADER, csvCell, csvRow, paymentsCsv, type ReadPage } from './csv-export';

const row = (n: number, fields: Partial<SessionRow> = {}): SessionRow => ({
  ...newSessionRow({ id: `cs_${String(n).padStart(22, '0')}`, app_id: 'app_x', amount: 4850, currency: 'USD', country_code: 'US', intent: 'charge', client_secret_hash: 'x', created: Date.UTC(2026, 10, 26, 12, 0, n), expires_at: 0 }),
  status: 'succeeded',
  ...fields,
});

describe('a CSV cell', () => {
  it('is quoted only when it holds a quote, a comma or a line break, its quotes doubled', () => {
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it.each(['=HYPERLINK("https://evil.example")', '+1+1', '-2+3', '@SUM(A1)', '\tcmd', '\rcmd'])('defuses %j as text with a leading quote', (formula) => {
    const cell = csvCell(formula);
    expect(cell.replace(/^"/, '').startsWith("'")).toBe(true);
    expect(cell).toContain(formula.replaceAll('"', '""'));
  });
});

describe('a payment as a CSV row', () => {
  it('has the documented columns: amounts in major units with the currency, the derived status, the card, created in ISO 8601 UTC', () => {
    expect(CSV_HEADER).toBe('id,created,reference,description,amount,currency,amount_refunded,payment_status,status,card_network,card_last4,decline_code,intent\r\n');
    const line = csvRow(row(1, { reference: 'order-1001', description: 'Mug, "large"', amount_refunded: 1000, card_network: 'VISA', card_last4: '4242' }));
    expect(line).toBe(`${row(1).id},2026-11-26T12:00:01.000Z,order-1001,"Mug, ""large""",48.50,USD,10.00,partially_refunded,succeeded,VISA,4242,,charge\r\n`);
    expect(csvRow(row(2, { amount: 3000, currency: 'JPY', description: '=1+1' }))).toContain(",'=1+1,3000,JPY,0,succeeded,");
  });
});

describe('the export', () => {
  /** A store of `total` rows read in pages, recording each read's limit and the chunks written in between. */
  function store(total: number) {
    const rows = Array.from({ length: total }, (_, i) => row(total - i));
    const log: string[] = [];
    const readPage: ReadPage = async (after, limit) => {
      log.push(`read ${limit}`);
      const start = after ? rows.findIndex((candidate) => candidate.id === after.id) + 1 : 0;
      return { rows: rows.slice(start, start + limit), hasMore: start + limit < rows.length };
    };
    return { rows, log, readPage };
  }

  it('reads the store a page at a time, writing each page before reading the next, every row once, newest first', async () => {
    const { rows, log, readPage } = store(7);
    const chunks: string[] = [];
    for await (const chunk of paymentsCsv(readPage, 3)) chunks.push(chunk), log.push(`write ${chunk.split('\r\n').length - 1}`);
    expect(log).toEqual(['write 1', 'read 3', 'write 3', 'read 3', 'write 3', 'read 3', 'write 1']);
    expect(chunks.join('')).toBe(CSV_HEADER + rows.map(csvRow).join(''));
  });

  it('stops reading when the reader has gone away', async () => {
    const { log, readPage } = store(10);
    let taken = 0;
    // The reader takes the header and one page, then goes away (pipeline ends the generator as a break does).
    for await (const _chunk of paymentsCsv(readPage, 3)) if (++taken === 2) break;
    expect(log).toEqual(['read 3']);
  });
});
