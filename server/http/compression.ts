/**
 * Replies compressed as the client accepts (gzip, deflate, br), by the maintained `compression`
 * middleware, but never one marked `Cache-Control: no-store`: those carry a secret or a session
 * (security.test.ts holds every such reply to the mark), and a compressed secret beside input an
 * attacker chose leaks through the reply's length (BREACH; docs/decisions.md). Nor one with a strong
 * ETag: it names those very bytes (the bundles', each encoding compressed at build time and served
 * under its own, common/http/static.ts). Tarballs are not a compressible type; there are no
 * Server-Sent Events.
 */
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';

/** Smaller replies gain nothing worth a compressor's time (compression's own default). */
const THRESHOLD_BYTES = 1024;

const carriesSecret = (res: Response) => /\bno-store\b/i.test(String(res.getHeader('Cache-Control') ?? ''));
const namesItsBytes = (res: Response) => /^"/.test(String(res.getHeader('ETag') ?? ''));

export function compressedReplies(): RequestHandler {
  return compression({
    threshold: THRESHOLD_BYTES,
    filter: (req: Request, res: Response) => !carriesSecret(res) && !namesItsBytes(res) && compression.filter(req, res),
  });
}
