/**
 * The sandbox's 3-D Secure challenge page: what an issuer's access control
 * server shows in the merchant's frame. Its URL (the authentication session's
 * unguessable id) is the only credential, as a real challenge URL's is. The
 * shopper completes or fails it; the page then tells the framing page, and only
 * that page's origin (`return_origin`), with
 * `window.parent.postMessage({type: 'wallet-checkout:challenge', id, status})`.
 */
import express from 'express';
import type { Response, Router } from 'express';
import { CHALLENGE_MESSAGE_TYPE } from '../contracts';
import { amountToDecimal } from '../contracts/currency';
import { httpError, sendError } from '../common/http/errors';
import { cardDescription } from './test-cards';
import { decideChallenge, findAuthenticationSession, findPaymentMethod } from './store';
import type { SandboxDb, StoredAuthenticationSession } from './store';
import { escapeHtml } from '../common/html';

export interface ChallengeContext {
  db: SandboxDb;
  now: () => number;
}

/**
 * Reports a decided challenge to the framing page; while it is open, reloads
 * when it expires so an abandoned challenge reports `expired` by itself.
 */
const SCRIPT = `(() => {
  const main = document.querySelector('main[data-status]');
  if (!main) return;
  const { id, status, returnOrigin, expiresIn } = main.dataset;
  if (status === 'challenge_required') {
    setTimeout(() => location.reload(), Number(expiresIn) + 250);
    return;
  }
  if (window.parent !== window) window.parent.postMessage({ type: ${JSON.stringify(CHALLENGE_MESSAGE_TYPE)}, id, status }, returnOrigin);
})();
`;

const STYLE = `
  body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: #1f1f1f; background: #fff; }
  .banner { margin: 0; background: #fef3c7; color: #78350f; padding: .4rem 1rem; font-size: .85rem; text-align: center; }
  main { padding: 1rem 1.25rem; }
  h1 { font-size: 1.15rem; margin: 0 0 .5rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; margin: 0 0 1rem; }
  dt { color: #5f6368; }
  form { display: flex; gap: .75rem; flex-wrap: wrap; }
  button { font: inherit; font-weight: 600; padding: .55rem 1rem; border-radius: .5rem; cursor: pointer; border: 1px solid #1a73e8; }
  .complete { background: #1a73e8; color: #fff; }
  .fail { background: #fff; color: #b3261e; border-color: #b3261e; }
  button:focus-visible { outline: 3px solid #174ea6; outline-offset: 2px; }
`;

const outcomeText: Record<StoredAuthenticationSession['status'], string> = {
  challenge_required: '',
  authenticated: 'Authentication complete. You can return to the checkout.',
  failed: 'Authentication failed. You can return to the checkout.',
  expired: 'This authentication has expired. You can return to the checkout and try again.',
};

function page(session: StoredAuthenticationSession, card: string, now: number): string {
  const open = session.status === 'challenge_required';
  const body = open
    ? `<p>Your bank asks you to confirm this payment. This is the sandbox: choose the result.</p>
      <dl>
        <dt>Amount</dt><dd>${escapeHtml(`${amountToDecimal(session.amount, session.currency)} ${session.currency.toUpperCase()}`)}</dd>
        <dt>Card</dt><dd>${escapeHtml(card)}</dd>
      </dl>
      <form method="post">
        <button class="complete" name="action" value="complete" autofocus>Complete authentication</button>
        <button class="fail" name="action" value="fail">Fail authentication</button>
      </form>`
    : `<p role="status" data-testid="challenge-result">${outcomeText[session.status]}</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox 3-D Secure challenge</title><style>${STYLE}</style></head>
<body>
  <p class="banner">Sandbox 3-D Secure: no bank is contacted and no real card is authenticated.</p>
  <main data-id="${escapeHtml(session.id)}" data-status="${escapeHtml(session.status)}" data-return-origin="${escapeHtml(session.return_origin)}" data-expires-in="${Math.max(0, session.expires_at - now)}">
    <h1>Confirm your payment</h1>
    ${body}
  </main>
  <script src="../challenge.js"></script>
</body></html>`;
}

/** Only the merchant page that asked for the challenge may frame it (and, in iframe mode, the pages around it). */
function frameableBy(res: Response, origins: string[]): void {
  res.removeHeader('X-Frame-Options');
  res.set(
    'Content-Security-Policy',
    `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors ${origins.join(' ')}`,
  );
}

export function challengeRoutes(ctx: ChallengeContext): Router {
  const router = express.Router();

  router.get('/challenge.js', (_req, res) => {
    res.type('application/javascript').set('Cache-Control', 'no-cache').send(SCRIPT);
  });

  router.get('/challenge/:id', async (req, res) => {
    const now = ctx.now();
    const session = await findAuthenticationSession(ctx.db, String(req.params.id), now);
    if (!session) return sendError(res, httpError(404, 'resource_missing', 'no such authentication session'));
    const method = await findPaymentMethod(ctx.db, session.merchant_account, session.payment_method);
    const card = method ? cardDescription(method.card.network, method.card.last4) : 'your card';
    frameableBy(res, [session.return_origin, ...session.ancestor_origins]);
    res.set('Cache-Control', 'no-store').type('html').send(page(session, card, now));
  });

  router.post('/challenge/:id', async (req, res) => {
    const action = (req.body as { action?: unknown } | undefined)?.action;
    if (action !== 'complete' && action !== 'fail') return sendError(res, httpError(400, 'invalid_request', 'action must be complete or fail'));
    // A challenge already decided or expired keeps its status: the page shows it.
    await decideChallenge(ctx.db, String(req.params.id), action === 'complete' ? 'authenticated' : 'failed', ctx.now());
    res.redirect(303, req.originalUrl);
  });

  return router;
}
