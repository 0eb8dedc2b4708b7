/** The widget's bundles, built by Vite into dist/web and served to any page that embeds them. */
import { fileURLToPath } from 'node:url';
import express from 'express';

const bundleDir = fileURLToPath(new URL('../../dist/web/', import.meta.url));

export function staticRoutes(options: { sandboxWallet: boolean }): express.Router {
  const router = express.Router();
  const send = (file: string) => (_req: express.Request, res: express.Response) => {
    // Merchants' pages on any origin load these, as classic or module scripts.
    res.set('Access-Control-Allow-Origin', '*');
    res.set('Cross-Origin-Resource-Policy', 'cross-origin');
    res.set('Cache-Control', 'public, max-age=300');
    res.sendFile(file, { root: bundleDir });
  };
  router.get('/checkout.js', send('checkout.js'));
  router.get('/checkout.mjs', send('checkout.mjs'));
  if (options.sandboxWallet) router.get('/sandbox/wallet.js', send('sandbox-wallet.js'));
  return router;
}
