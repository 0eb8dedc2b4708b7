import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A URL-safe random identifier or secret with `bytes` of entropy. */
export const randomId = (bytes = 16): string => randomBytes(bytes).toString('base64url');

/**
 * Secrets are stored as SHA-256 digests: they are long random strings, so a
 * slow password hash would add latency to every request and no security.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Compares a presented secret with a stored digest in constant time. */
export function secretMatches(presented: string, storedHash: string): boolean {
  const a = Buffer.from(hashSecret(presented), 'hex');
  const b = Buffer.from(storedHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}
