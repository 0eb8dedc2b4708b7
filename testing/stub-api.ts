import type { IncomingMessage, RequestListener } from 'node:http';

/** One request as the stub API received it. */
export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A reply the stub gives, in order (no body: an empty reply); once they are used up it answers 500. */
export interface StubReply {
  status: number;
  body?: unknown;
}

/**
 * A stand-in for the checkout's API, for a client library's tests: it records each request and
 * answers the replies queued, in order. Serve `handler` with testing/listen.ts; `reset` between tests.
 */
export function stubApi() {
  const received: StubRequest[] = [];
  const replies: StubReply[] = [];
  const handler: RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = replies.shift() ?? { status: 500, body: { error: { code: 'internal_error', message: 'no reply queued' } } };
      if (reply.body === undefined) return res.writeHead(reply.status).end();
      res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': 'req_stub' }).end(JSON.stringify(reply.body));
    });
  };
  const reset = () => {
    received.length = 0;
    replies.length = 0;
  };
  return { received, replies, handler, reset };
}
