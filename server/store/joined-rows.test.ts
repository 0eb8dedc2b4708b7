import { describe, expect, it } from 'vitest';
import { prefixedColumns, unprefixedColumns } from './joined-rows';

const row = { id: 'cs_1', amount: 2400, note: null, 'app:id': 'app_1', 'app:name': 'Shop', 'refund:id': null };

describe('joined rows: the columns of each table apart', () => {
  it("gives the main table's columns, and each joined table's under its own names, nulls kept", () => {
    expect(unprefixedColumns(row)).toEqual({ id: 'cs_1', amount: 2400, note: null });
    expect(prefixedColumns(row, 'app')).toEqual({ id: 'app_1', name: 'Shop' });
    expect(prefixedColumns(row, 'refund')).toEqual({ id: null });
  });

  it('does not take a prefix that merely starts another one', () => {
    expect(prefixedColumns({ 'application:id': 'x', 'app:id': 'y' }, 'app')).toEqual({ id: 'y' });
  });

  it('copies the rows of each statement by its own names, statements taking turns, and each copy is a plain object of its own', () => {
    const other = { id: 'cs_2', status: 'open', 'app:id': 'app_2', 'app:mode': 'platform' };
    for (let turn = 0; turn < 3; turn++) {
      expect(unprefixedColumns(row)).toEqual({ id: 'cs_1', amount: 2400, note: null });
      expect(unprefixedColumns(other)).toEqual({ id: 'cs_2', status: 'open' });
      expect(prefixedColumns(other, 'app')).toEqual({ id: 'app_2', mode: 'platform' });
      expect(prefixedColumns(row, 'app')).toEqual({ id: 'app_1', name: 'Shop' });
    }
    const copy = unprefixedColumns(row);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    copy.amount = 1;
    expect(row.amount).toBe(2400);
  });

  it('copies rows of many more statements than it compiles copies for', () => {
    for (let columns = 1; columns <= 40; columns++) {
      const wide = Object.fromEntries([...Array(columns)].flatMap((_, i) => [[`c${i}`, i], [`app:c${i}`, i + 100]]));
      expect(Object.keys(unprefixedColumns(wide))).toHaveLength(columns);
      expect(prefixedColumns(wide, 'app')[`c${columns - 1}`]).toBe(columns + 99);
    }
  });

  it('refuses a column that a copy would make its prototype, and takes odd names as they are', () => {
    expect(() => prefixedColumns({ id: 'x', 'app:__proto__': { admin: true } }, 'app')).toThrow(/__proto__/);
    const odd = { 'a "quoted" name': 1, 'back\\slash': 2, constructor: 3, toString: 4 };
    expect(unprefixedColumns(odd)).toEqual(odd);
  });
});
