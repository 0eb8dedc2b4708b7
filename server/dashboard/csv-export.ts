/**
 * The Payments list as CSV (GET /dashboard/api/payments.csv, docs/dashboard.md
 * "CSV export"): every session the list's filters find, newest first, written
 * a keyset page at a time as the store answers, so a large export holds one
 * page in memory, never the whole list. RFC 4180 quoting; a cell a spreadsheet
 * would run as a formula is defused (OWASP's CSV injection rule).
 */
import { paymentStatusOf, SessionStatus } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { minorUnitsToDecimal } from '../../contracts/money';
import type { Writable } from 'node:stream';
import type { SessionRow } from '../store/sessions';

/** The columns, in order: the header row, and what each row's cell is. */
const COLUMNS: readonly [string, (row: SessionRow) => string | null][] = [
  ['id', (row) => row.id],
  ['created', (row) => new Date(row.created).toISOString()],
  ['reference', (row) => row.reference],
  ['description', (row) => row.description],
  ['amount', (row) => minorUnitsToDecimal(row.amount, exponentOf(row.currency))],
  ['currency', (row) => row.currency],
  ['amount_refunded', (row) => minorUnitsToDecimal(row.amount_refunded, exponentOf(row.currency))],
  ['payment_status', (row) => paymentStatusOf({ ...row, status: SessionStatus.parse(row.status) }, row.disputed === 1)],
  ['status', (row) => row.status],
  ['card_network', (row) => row.card_network ?? null],
  ['card_last4', (row) => row.card_last4 ?? null],
  ['decline_code', (row) => row.decline_code ?? null],
  ['intent', (row) => row.intent],
];

/** A cell starting with one of these is run as a formula by a spreadsheet (OWASP: = + - @ tab CR). */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: a would-be formula prefixed with `'` (shown as text), quoted when it holds a quote, comma or line break. */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: readonly (string | null)[]): string => `${cells.map(csvCell).join(',')}\r\n`;

export const CSV_HEADER = csvLine(COLUMNS.map(([name]) => name));

export const csvRow = (row: SessionRow): string => csvLine(COLUMNS.map(([, cell]) => cell(row)));

/** One keyset page of the export: the rows after `after` (none: the first page), and whether more follow. */
export type ReadPage = (after: { created: number; id: string } | undefined, limit: number) => Promise<{ rows: SessionRow[]; hasMore: boolean }>;

/** Rows read per query: a page's rows are written before the next is read. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * Writes the header and every row, page after page; `write` resolves when the chunk may be followed (the
 * response's back-pressure), false when the reader went away, which stops the export. The number of rows written.
 */
export async function writePaymentsCsv(readPage: ReadPage, write: (chunk: string) => Promise<boolean>, pageSize = EXPORT_PAGE_SIZE): Promise<number> {
  if (!(await write(CSV_HEADER))) return 0;
  let written = 0;
  for (let after: { created: number; id: string } | undefined; ; ) {
    const page = await readPage(after, pageSize);
    if (page.rows.length > 0 && !(await write(page.rows.map(csvRow).join('')))) return written;
    written += page.rows.length;
    const last = page.rows.at(-1);
    if (!page.hasMore || !last) return written;
    after = { created: last.created, id: last.id };
  }
}

/** Writes `chunk` to `out`, resolving once it may take more (its 'drain' past the buffer): false when the reader went away. */
export function writeChunk(out: Writable, chunk: string): Promise<boolean> {
  if (out.destroyed) return Promise.resolve(false);
  if (out.write(chunk)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const settle = (more: boolean) => () => {
      out.off('drain', drained);
      out.off('close', closed);
      resolve(more);
    };
    const drained = settle(true);
    const closed = settle(false);
    out.once('drain', drained);
    out.once('close', closed);
  });
}
