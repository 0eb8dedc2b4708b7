/**
 * The Payments list as CSV (GET /dashboard/api/payments.csv, docs/dashboard.md
 * "CSV export"): every session the list's filters find, newest first, written
 * a keyset page at a time as the store answers, so a large export holds one
 * page in memory, never the whole list. RFC 4180 quoting; a cell a spreadsheet
 * would run as a formula is defused (OWASP's CSV injection rule).
 */
import { stringify } from 'csv-stringify/sync';
import { paymentStatusOf, SessionStatus } from '../../contracts';
import { exponentOf } from '../../contracts/currency';
import { minorUnitsToDecimal } from '../../contracts/money';
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

/**
 * RFC 4180 lines: CRLF ends, a cell quoted when it holds a quote (doubled), a comma or a line break (csv-stringify
 * quotes a bare LF only when asked: `quoted_match`), and a cell a spreadsheet would run as a formula (OWASP: = + - @
 * tab CR first) prefixed with `'`, shown as text (`escape_formulas`).
 */
const CSV_OPTIONS = { record_delimiter: 'windows', quoted_match: /[\r\n]/, escape_formulas: true } as const;

const csvLine = (cells: readonly (string | null)[]): string => stringify([cells as (string | null)[]], CSV_OPTIONS);

/** One cell as a line would write it. */
export const csvCell = (value: string | null): string => csvLine([value]).slice(0, -2);

export const CSV_HEADER = csvLine(COLUMNS.map(([name]) => name));

export const csvRow = (row: SessionRow): string => csvLine(COLUMNS.map(([, cell]) => cell(row)));

/** One keyset page of the export: the rows after `after` (none: the first page), and whether more follow. */
export type ReadPage = (after: { created: number; id: string } | undefined, limit: number) => Promise<{ rows: SessionRow[]; hasMore: boolean }>;

/** Rows read per query: a page's rows are written before the next is read. */
export const EXPORT_PAGE_SIZE = 500;

/**
 * The CSV, the header then one chunk per keyset page. Lazy: a page is read only once the previous chunk was taken, so
 * streamed through `Readable.from` and `pipeline` (the route) the connection's back-pressure paces the reads, and a
 * reader that goes away ends them.
 */
export async function* paymentsCsv(readPage: ReadPage, pageSize = EXPORT_PAGE_SIZE): AsyncGenerator<string> {
  yield CSV_HEADER;
  for (let after: { created: number; id: string } | undefined; ; ) {
    const page = await readPage(after, pageSize);
    if (page.rows.length > 0) yield page.rows.map(csvRow).join('');
    const last = page.rows.at(-1);
    if (!page.hasMore || !last) return;
    after = { created: last.created, id: last.id };
  }
}
