import { describe, expect, it } from 'vitest';
import { findWhole } from './find-text';

describe('findWhole', () => {
  const address = ['500 Elsewhere Avenue', '97201', 'Portland', '94105-1234'];

  it('finds the parts of an address, as a log line or a JSON column would hold them', () => {
    expect(findWhole('{"postal_code":"97201","locality":"Portland"}', address)).toEqual(['97201', 'Portland']);
    expect(findWhole('billed to 500 Elsewhere Avenue, 94105-1234', address)).toEqual(['500 Elsewhere Avenue', '94105-1234']);
    expect(findWhole('97201US', address)).toEqual(['97201']);
  });

  it('does not take a digit run that merely contains a postal code for one', () => {
    expect(findWhole('{"time":1795554697201,"msg":"request completed","pid":972014}', address)).toEqual([]);
  });

  it('reads needles as text, not as patterns', () => {
    expect(findWhole('St. Johns', ['St. John'])).toEqual(['St. John']);
    expect(findWhole('StX John', ['St. John'])).toEqual([]);
  });
});
