import { describe, expect, it } from 'vitest';
import { randomBytesFromPool, randomId } from './secrets';

describe('random bytes from the pool', () => {
  it('never hands out the same bytes twice, across the pool being refilled', () => {
    // 12-byte draws (an IV's size) over several 4 KiB refills.
    const draws = Array.from({ length: 2000 }, () => randomBytesFromPool(12));
    expect(draws.every((bytes) => bytes.length === 12)).toBe(true);
    expect(new Set(draws.map((bytes) => bytes.toString('hex'))).size).toBe(draws.length);
  });

  it('hands out copies, which the pool zeroing what it handed out leaves alone', () => {
    expect(randomBytesFromPool(32).equals(Buffer.alloc(32))).toBe(false);
  });

  it('makes ids of the entropy asked for', () => {
    expect(randomId(12)).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(Buffer.from(randomId(), 'base64url')).toHaveLength(16);
  });
});
