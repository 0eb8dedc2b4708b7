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
});
