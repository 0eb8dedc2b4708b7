/**
 * The merchant's site the browser benchmarks load: its pages (set by the bench), Google's element
 * bundle for the bare page, and the sandbox wallet's calls sent on to the backend. The wallet is
 * defined by an init script rather than loaded from our backend, so it asks the page's origin for
 * cards and tokens; they are forwarded here, in the server, so no browser-side interception sits
 * between the page and the network (the slow 4G bench throttles it).
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { type Listening, listen } from '../../testing/listen';

const HOP_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

export interface Shop extends Listening {
  /** Path to page HTML, served as text/html. */
  pages: Map<string, string>;
}

export async function startShop(elementBundle: string, backendUrl: string): Promise<Shop> {
  const elementJs = readFileSync(elementBundle);
  const elementEncoded = { br: brotliCompressSync(elementJs, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }), gzip: gzipSync(elementJs, { level: 9 }) };
  const pages = new Map<string, string>();
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const answer = await fetch(`${backendUrl}${req.url ?? '/'}`, {
      method: req.method,
      // As the browser sent them, less what names this hop (the Origin stays: the backend judges it).
      headers: Object.entries(req.headers).flatMap(([name, value]): [string, string][] => (HOP_HEADERS.has(name) || value === undefined ? [] : [[name, String(value)]])),
      ...(chunks.length > 0 && { body: Buffer.concat(chunks) }),
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  };
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path.startsWith('/sandbox/wallet/')) {
      forward(req, res).catch(() => {
        res.writeHead(502);
        res.end();
      });
      return;
    }
    if (path === '/element.js') {
      // The headers and the compression our backend serves checkout.js with (common/http/static.ts), so the two scripts load alike.
      const accepted = String(req.headers['accept-encoding'] ?? '');
      const encoding = (['br', 'gzip'] as const).find((name) => accepted.includes(name));
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300', vary: 'Accept-Encoding', ...(encoding && { 'content-encoding': encoding }) });
      return res.end(encoding ? elementEncoded[encoding] : elementJs);
    }
    const page = pages.get(path);
    if (page === undefined) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  };
  return { ...(await listen(serve)), pages };
}
