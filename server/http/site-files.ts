/**
 * The two files every site is asked for: `/robots.txt`, which keeps crawlers out of the merchant's
 * dashboard (whose page also says `noindex`, server/dashboard/routes.ts), and `/favicon.ico`, which
 * browsers fetch for every page they open, so no page of ours logs a 404 for it.
 */
import express from 'express';

export const ROBOTS_TXT = 'User-agent: *\nDisallow: /dashboard\n';

/** 16×16, a blue dot: an ICO holding one PNG (127 bytes). */
const FAVICON = Buffer.from('AAABAAEAEBAAAAEAIABpAAAAFgAAAIlQTkcNChoKAAAADUlIRFIAAAAQAAAAEAgGAAAAH/P/YQAAADBJREFUeNpjYKA2kCp+8R8fpkgzXkOI1YzVEFI1YxgyasCwMIDihESVpEyVzEQOAAA3oKYA4BHobwAAAABJRU5ErkJggg==', 'base64');

const A_DAY = 'public, max-age=86400';

export function siteFileRoutes(): express.Router {
  const router = express.Router();
  router.get('/robots.txt', (_req, res) => void res.set('Cache-Control', A_DAY).type('text/plain').send(ROBOTS_TXT));
  router.get('/favicon.ico', (_req, res) => void res.set('Cache-Control', A_DAY).type('image/x-icon').send(FAVICON));
  return router;
}
