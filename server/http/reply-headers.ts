/**
 * What a reply carries besides its body, by what it is.
 *
 * The JSON API's (every path under `/api/`): `Cache-Control: no-store`, since every reply there
 * carries a secret (a client secret, a secret key, a webhook secret), a session or a payment's state,
 * or is one a shared cache must not keep; so never compressed either (compression.ts: a compressed
 * secret beside input an attacker chose leaks through the reply's length). And helmet's headers with
 * a policy for a document that loads and frames nothing: a JSON reply runs no script, so it needs no
 * nonce, and nothing in its headers changes from one reply to the next, so they are computed once.
 *
 * Our pages' (the demo store, the checkout frame, the dashboard, whatever else): helmet's headers
 * with a policy whose scripts run by a nonce drawn for each reply, compressed as the client accepts.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { randomBytesFromPool } from '../../common/secrets';
import { compressedReplies } from './compression';

type SandboxOrigin = (() => string) | undefined;

/**
 * The policy of our pages. Our only HTML is the demo store and the checkout
 * frame: their scripts run by a per-response nonce; Google's pay.js and its
 * frames are allowed for the TEST and PRODUCTION wallets, a standalone
 * sandbox's wallet script, API and challenge pages for the SANDBOX one.
 */
const pageCsp = (sandboxOrigin: SandboxOrigin) => {
  const sandbox = sandboxOrigin ? [() => sandboxOrigin()] : [];
  return {
    ...PAGE_CSP,
    scriptSrc: [...PAGE_CSP.scriptSrc, ...sandbox],
    connectSrc: [...PAGE_CSP.connectSrc, ...sandbox],
    frameSrc: [...PAGE_CSP.frameSrc, ...sandbox],
  };
};

const PAGE_CSP = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://pay.google.com', (_req: IncomingMessage, res: ServerResponse) => `'nonce-${(res as Response).locals.cspNonce}'`],
  styleSrc: ["'self'", "'unsafe-inline'"],
  imgSrc: ["'self'", 'data:', 'https://www.gstatic.com'],
  connectSrc: ["'self'", 'https://pay.google.com'],
  // 'self': the embedded sandbox's 3-D Secure challenge page, which the widget frames.
  frameSrc: ["'self'", 'https://pay.google.com'],
  frameAncestors: ["'self'"],
  // Our pages are served over http on a developer's machine: frames inherit the upgrade, which
  // sent the sandbox 3-D Secure challenge's form to an https address that is not there.
  upgradeInsecureRequests: null,
};

/**
 * The checkout frame's policy (iframe mode, docs/embedding.md): any page may
 * frame it, since which pages may is the session's app's to say, and the frame
 * checks that once the client secret arrives; and it frames the bank's 3-D
 * Secure challenge, whose https origin is the payment service's to choose.
 */
const frameCsp = (sandboxOrigin: SandboxOrigin) => {
  const page = pageCsp(sandboxOrigin);
  return { ...page, frameSrc: [...page.frameSrc, 'https:'], frameAncestors: ['*'] };
};

/** A JSON reply loads nothing and no page may frame it. */
const API_CSP = { defaultSrc: ["'none'"], frameAncestors: ["'none'"] };

const isApiPath = (path: string): boolean => path.startsWith('/api/') || path === '/api';

/** The headers a middleware that only sets headers, and sets the same ones on every reply, sets: taken once, from a reply that records them. */
function fixedHeadersOf(middleware: RequestHandler): [name: string, value: string][] {
  const headers: [string, string][] = [];
  const recorder = { setHeader: (name: string, value: string) => headers.push([name, value]), removeHeader: () => undefined };
  middleware({} as Request, recorder as unknown as Response, () => undefined);
  return headers;
}

/** Every reply's headers, the API's or a page's (above). The bundles override the resource policy so that merchants' pages on any origin can load them. */
export function replyHeaders(sandboxOrigin: SandboxOrigin): RequestHandler {
  const apiHeaders = fixedHeadersOf(
    helmet({ contentSecurityPolicy: { useDefaults: false, directives: API_CSP }, crossOriginResourcePolicy: { policy: 'same-site' }, xFrameOptions: { action: 'deny' } }),
  );
  const pagePolicy = helmet({ contentSecurityPolicy: { directives: pageCsp(sandboxOrigin) }, crossOriginResourcePolicy: { policy: 'same-site' } });
  const compressed = compressedReplies();
  return (req: Request, res: Response, next: NextFunction) => {
    if (isApiPath(req.path)) {
      for (const [name, value] of apiHeaders) res.setHeader(name, value);
      res.setHeader('Cache-Control', 'no-store');
      return next();
    }
    res.locals.cspNonce = randomBytesFromPool(16).toString('base64');
    pagePolicy(req, res, (error?: unknown) => (error ? next(error) : compressed(req, res, next)));
  };
}

/** Replaces the page policy replyHeaders() set with the checkout frame's, and lets other sites frame it. */
export const frameHeaders = (sandboxOrigin: SandboxOrigin): RequestHandler[] => [
  helmet.contentSecurityPolicy({ directives: frameCsp(sandboxOrigin) }),
  (_req, res, next) => {
    res.removeHeader('X-Frame-Options');
    next();
  },
];
