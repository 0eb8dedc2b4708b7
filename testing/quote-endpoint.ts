/**
 * A merchant's quote endpoint for tests (docs/express-checkout.md#the-merchants-quote-endpoint): plain
 * node:http on 127.0.0.1, on a free port. It keeps every request as it came (the raw body, as signed, and
 * its signature header) and answers with whatever the test's `answer` says: a JSON body, any status, text
 * that is not JSON, an answer that comes late or never.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { QuoteRequest } from '../contracts';

/** What the endpoint answers: JSON (status 200 unless said), or a raw body. */
export type QuoteEndpointReply = { status?: number; json: unknown } | { status?: number; text: string };

export interface ReceivedQuoteRequest {
  /** The raw body, as signed. */
  body: string;
  signature: string | undefined;
  request: QuoteRequest;
}

export interface TestQuoteEndpoint {
  /** Where to register it: http://127.0.0.1:<port>/quotes */
  readonly url: string;
  /** Every request, in arrival order (none when started with `keepRequests: false`, as a long soak is). */
  readonly received: ReceivedQuoteRequest[];
  /**
   * How it answers each request; it may wait (a slow endpoint) or never resolve (one that hangs). The endpoint
   * also gives it the request as it came, to check its signature (a test that calls `answer` itself may not).
   */
  answer: (request: QuoteRequest, received?: ReceivedQuoteRequest) => QuoteEndpointReply | Promise<QuoteEndpointReply>;
  close(): Promise<void>;
}

export async function startQuoteEndpoint(answer: TestQuoteEndpoint['answer'], { keepRequests = true } = {}): Promise<TestQuoteEndpoint> {
  const received: ReceivedQuoteRequest[] = [];
  const endpoint = { answer };
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request = JSON.parse(body) as QuoteRequest;
      const signature = req.headers['wallet-checkout-signature'];
      const arrived = { body, signature: typeof signature === 'string' ? signature : undefined, request };
      if (keepRequests) received.push(arrived);
      const reply = await endpoint.answer(request, arrived);
      if (res.destroyed) return;
      if ('json' in reply) res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json));
      else res.writeHead(reply.status ?? 200, { 'content-type': 'text/plain' }).end(reply.text);
    });
  };
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/quotes`,
    received,
    get answer() {
      return endpoint.answer;
    },
    set answer(value) {
      endpoint.answer = value;
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
