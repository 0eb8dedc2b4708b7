/**
 * The checkout host behind a door that holds the session's view (`GET /api/sessions/{id}/public`)
 * back until the test opens it; every other request (a payment, its preflight) passes straight
 * through. A page names the door with `data-api-base`. A server rather than a route, so that the
 * engines whose drivers intercept nothing (Firefox ESR, WebKitGTK: e2e/engines) hold it back too.
 */
import type { IncomingMessage } from 'node:http';
import { listen } from '../../testing/listen';

export interface HeldView {
  /** Where the page sends the widget's calls (its `data-api-base`). */
  url: string;
  /** Whether the widget has asked for the view (and is waiting for it). */
  asked(): boolean;
  /** Lets the view through, now and from now on. */
  release(): void;
  close(): Promise<void>;
}

/** Hop-by-hop headers, and those fetch has already acted on (it decodes the body it hands on). */
const NOT_PASSED = new Set(['host', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding']);

/** The request's body as text: the widget's calls send JSON. */
async function bodyOf(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length > 0 ? Buffer.concat(chunks).toString('utf8') : undefined;
}

export async function heldView(backend: string): Promise<HeldView> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let asked = false;
  const door = await listen(async (req, res) => {
    const path = req.url ?? '/';
    if (req.method === 'GET' && /^\/api\/sessions\/[^/]+\/public(\?|$)/.test(path)) {
      asked = true;
      await released;
    }
    try {
      const headers = Object.entries(req.headers).filter(([name, value]) => !NOT_PASSED.has(name) && typeof value === 'string') as [string, string][];
      const answer = await fetch(`${backend}${path}`, { method: req.method, headers, body: await bodyOf(req), redirect: 'manual' });
      const passed: Record<string, string> = {};
      answer.headers.forEach((value, name) => NOT_PASSED.has(name) || (passed[name] = value));
      res.writeHead(answer.status, passed).end(Buffer.from(await answer.arrayBuffer()));
    } catch {
      res.writeHead(502).end();
    }
  });
  return { url: door.origin, asked: () => asked, release, close: door.close };
}
