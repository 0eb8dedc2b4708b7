import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What the pool below draws from the CSPRNG at once. */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let drawn = 0;

/**
 * `size` bytes from the CSPRNG, drawn from a pool refilled 4 KiB at a time,
 * as Node does for randomUUID: a pay takes half a dozen small draws (ids, IVs,
 * the CSP nonce), and each randomBytes call is a native job of its own. Every byte is handed out once, as a copy, and zeroed in the pool.
 */
export function randomBytesFromPool(size: number): Buffer {
  if (size > POOL_BYTES) return randomBytes(size);
  if (drawn + size > pool.length) {
    pool = randomBytes(POOL_BYTES);
    drawn = 0;
  }
  const bytes = Buffer.from(pool.subarray(drawn, drawn + size));
  pool.fill(0, drawn, drawn + size);
  drawn += size;
  return bytes;
}

/** A URL-safe random identifier or secret with `bytes` of entropy. */
export const randomId = (bytes = 16): string => randomBytesFromPool(bytes).toString('base64url');

/**
 * Secrets are stored as SHA-256 digests: they are long random strings, so a
 * slow password hash would add latency to every request and no security.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Compares a presented secret with a stored digest in constant time. */
export const secretMatches = (presented: string, storedHash: string): boolean => digestMatches(Buffer.from(hashSecret(presented), 'hex'), storedHash);

/** Compares a presented digest (its bytes) with a stored one (hex) in constant time. */
export function digestMatches(presented: Buffer, storedHash: string): boolean {
  const stored = Buffer.from(storedHash, 'hex');
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}
