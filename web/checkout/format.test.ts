import { describe, expect, it } from 'vitest';
import { describeCard } from './format';

describe('describeCard', () => {
  it('shows network and last 4', () => {
    expect(describeCard({ network: 'VISA', last4: '4242' })).toBe('Visa •••• 4242');
    expect(describeCard({ network: 'MASTERCARD', last4: '0004' })).toBe('Mastercard •••• 0004');
  });
});
