/**
 * GET /api/sessions over real HTTP: an app's sessions, newest first, a page at
 * a time, with filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedSession, SessionList } from '../../contracts';
import { startTestServer, type TestServer } from '../../testing/harness';

let server: TestServer;
let secretKey: string;
/** This app's sessions, and their `created` as the test set it. */
let sessions: { id: string; created: number; reference: string | null }[];

/** Sessions whose `created` is set by the test: several share one ms, so order falls to the id. */
const CREATED = [1_000, 2_000, 2_000, 2_000, 3_000, 4_000, 5_000];

beforeAll(async () => {
  server = await startTestServer();
  ({ secretKey } = await server.merchant());
  sessions = [];
  for (const [index, created] of CREATED.entries()) {
    const session: CreatedSession = await server.createSession(secretKey, { reference: index % 2 === 0 ? 'order-even' : `order-${index}` });
    await server.store.updateTable('sessions').set({ created }).where('id', '=', session.id).execute();
    sessions.push({ id: session.id, created, reference: session.reference });
  }
});
afterAll(() => server.close());

const list = (query: string, key = secretKey) => fetch(`${server.url}/api/sessions${query}`, { headers: { authorization: `Bearer ${key}` } });
const page = async (query: string) => {
  const reply = await list(query);
  expect(reply.status, await reply.clone().text()).toBe(200);
  return (await reply.json()) as SessionList;
};
const newestFirst = (rows: typeof sessions) => [...rows].sort((a, b) => b.created - a.created || (a.id < b.id ? 1 : -1)).map((row) => row.id);

describe('listing sessions', () => {
  it('pages through every session newest first, each once, has_more false only on the last page', async () => {
    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor = '';
    do {
      const body = await page(`?limit=3${cursor && `&starting_after=${cursor}`}`);
      expect(body.object).toBe('list');
      seen.push(...body.data.map((session) => session.id));
      hasMore.push(body.has_more);
      cursor = body.has_more ? body.data.at(-1)!.id : '';
    } while (cursor);
    expect(seen).toEqual(newestFirst(sessions));
    expect(hasMore).toEqual([true, true, false]);
  });

  it('answers a full last page with has_more false, and the merchant view of each session', async () => {
    const body = await page(`?limit=${CREATED.length}`);
    expect(body.has_more).toBe(false);
    expect(body.data).toHaveLength(CREATED.length);
    expect(body.data[0]).toMatchObject({ object: 'checkout_session', id: newestFirst(sessions)[0], created: 5_000, status: 'open' });
    expect(body.data[0]).not.toHaveProperty('client_secret');
  });

  it('combines filters: status, reference and the created range (from created_gte, before created_lt)', async () => {
    const paid = sessions[3]!;
    await server.store.updateTable('sessions').set({ status: 'succeeded' }).where('id', '=', paid.id).execute();
    try {
      expect((await page('?status=succeeded')).data.map((session) => session.id)).toEqual([paid.id]);
      expect((await page('?status=open&created_gte=2000&created_lt=3000')).data.map((session) => session.id)).toEqual(newestFirst(sessions.filter((s) => s.created === 2_000 && s !== paid)));
      expect((await page('?reference=order-even')).data.map((session) => session.id)).toEqual(newestFirst(sessions.filter((s) => s.reference === 'order-even')));
      expect((await page('?reference=order-even&created_lt=2000')).data.map((session) => session.id)).toEqual([sessions[0]!.id]);
      expect(await page('?reference=order-none')).toEqual({ object: 'list', data: [], has_more: false });
    } finally {
      await server.store.updateTable('sessions').set({ status: 'open' }).where('id', '=', paid.id).execute();
    }
  });

  it("shows only the calling app's sessions, to its secret key, never cached", async () => {
    const other = await server.merchant({ name: 'Other Shop' });
    const theirs = await server.createSession(other.secretKey);
    const body = (await (await list('', other.secretKey)).json()) as SessionList;
    expect(body.data.map((session) => session.id)).toEqual([theirs.id]);
    expect((await page('?limit=100')).data.map((session) => session.id)).not.toContain(theirs.id);

    const unauthenticated = await list('', 'sk_test_wrong');
    expect(unauthenticated.status).toBe(401);
    expect((await unauthenticated.json()).error.code).toBe('unauthenticated');
    expect((await list('')).headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=ten', 'limit'],
    ['?limit=1e2', 'limit'],
    ['?limit=', 'limit'],
    ['?status=paid', 'status'],
    ['?status=open&status=succeeded', 'status'],
    ['?created_gte=-1', 'created_gte'],
    ['?created_lt=soon', 'created_lt'],
    ['?reference=a%00b', 'reference'],
    ['?starting_after=cs_nope', 'starting_after'],
    // A well-formed id of no session.
    ['?starting_after=cs_AAAAAAAAAAAAAAAAAAAAAA', 'starting_after'],
    ['?colour=red', '(query): Unrecognized key: "colour"'],
  ])('refuses %s as invalid_request naming %s', async (query, field) => {
    const reply = await list(query);
    expect(reply.status).toBe(400);
    const { error } = await reply.json();
    expect(error.code).toBe('invalid_request');
    expect(error.message).toContain(field);
  });

  it("refuses another app's session as starting_after, saying nothing of it", async () => {
    const other = await server.merchant({ name: 'Another Shop' });
    const theirs = await server.createSession(other.secretKey);
    const reply = await list(`?starting_after=${theirs.id}`);
    expect(reply.status).toBe(400);
    expect(await reply.json()).toEqual({ error: { code: 'invalid_request', message: 'starting_after: no session of this application has this id' } });
  });
});
