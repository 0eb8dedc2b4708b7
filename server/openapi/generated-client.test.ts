/**
 * The document is usable by client generators: a TypeScript client generated
 * from it (openapi-typescript's types, openapi-fetch's calls) runs the
 * merchant's whole flow, typed end to end. The types are generated into
 * dist/openapi/api-types.ts by server/openapi/cli.ts (`npm run typecheck` runs it
 * first, so the typecheck checks this flow against them); this test checks they
 * are those of the document the running server serves.
 */
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { paths } from '../../dist/openapi/api-types';
import { startTestServer, type TestServer } from '../../testing/harness';
import { clientTypes } from './client-types';
import type { openApiDocument } from './document';

const typesInDist = new URL('../../dist/openapi/api-types.ts', import.meta.url);

let server: TestServer;
let secretKey: string;
beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant());
});
afterAll(() => server.close());

describe('a TypeScript client generated from /openapi.json', () => {
  it('is the one in dist/, generated from the document the running server serves', async () => {
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as ReturnType<typeof openApiDocument>;
    expect(readFileSync(typesInDist, 'utf8'), 'dist/openapi/api-types.ts is stale: run npm run typecheck').toBe(await clientTypes(document));
  });

  it("runs the merchant's flow: create, read, pay through the sandbox wallet's steps, capture, release, a typed error", async () => {
    const merchant = createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${secretKey}` } });
    const sandboxWallet = createClient<paths>({ baseUrl: server.url });

    async function authorizedHold(amount: number) {
      // openapi-typescript types a field with a default as required (its defaultNonNullable), as a merchant's generator does by default.
      const created = await merchant.POST('/api/sessions', { body: { amount, currency: 'eur', country_code: 'fr', intent: 'hold', reference: 'order-1', quote_endpoint: false, promotion_codes: false } });
      const session = created.data!;
      expect(created.response.status).toBe(201);
      const read = await merchant.GET('/api/sessions/{id}', { params: { path: { id: session.id } } });
      expect(read.data).toMatchObject({ id: session.id, status: 'open', amount, currency: 'EUR', intent: 'hold' });

      // The widget's steps: its view, the wallet's sheet (the sandbox's), then pay.
      const widget = createClient<paths>({ baseUrl: server.url, headers: { authorization: `Bearer ${session.client_secret}` } });
      const path = { path: { id: session.id } };
      const view = await widget.GET('/api/sessions/{id}/public', { params: path });
      const cards = await sandboxWallet.GET('/sandbox/wallet/cards');
      const card = cards.data!.cards.find((offered) => offered.outcome === 'success' && offered.three_ds === null)!;
      const token = await sandboxWallet.POST('/sandbox/wallet/tokens', { body: { card_id: card.id, payment_data_request: view.data!.payment_data_request } });
      const paid = await widget.POST('/api/sessions/{id}/pay', { params: path, body: { payment_data: token.data!.payment_data } });
      expect(paid.data?.outcome).toMatchObject({ status: 'authorized', card: { network: card.network, last4: card.last4 } });
      return path;
    }

    const captured = await authorizedHold(4000);
    const capture = await merchant.POST('/api/sessions/{id}/capture', { params: captured, body: { amount: 2500 } });
    expect(capture.data).toMatchObject({ status: 'captured', amount_captured: 2500, outcome: { status: 'authorized' } });

    const again = await merchant.POST('/api/sessions/{id}/capture', { params: captured, body: {} });
    expect(again.response.status).toBe(409);
    const code: string | undefined = again.error?.error.code;
    expect(code).toBe('invalid_state');

    const released = await authorizedHold(1200);
    const release = await merchant.POST('/api/sessions/{id}/release', { params: released });
    expect(release.data?.status).toBe('released');
  });
});
