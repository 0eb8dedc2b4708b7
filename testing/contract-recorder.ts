/**
 * Records every reply a test receives from one of our test servers (the
 * harness's and child servers register their origins), so that the API
 * contract check (api-contract.ts, run after each test file by
 * api-contract-setup.ts) can hold them against the OpenAPI document.
 * Replies of other servers (a stub payment service, a webhook receiver) are
 * no business of the document and are not recorded.
 */
export interface RecordedReply {
  method: string;
  url: string;
  status: number;
  contentType: string | null;
  /** JSON replies only: other bodies (a script, a page, a stream) are never read. */
  body: string | undefined;
}

const serverOrigins = new Set<string>();
const pending: Promise<RecordedReply | undefined>[] = [];

/** Replies from `url`'s origin are recorded from now on (until the test file ends). */
export function coverByContract(url: string): void {
  serverOrigins.add(new URL(url).origin);
}

/** Undefined for a reply cut off mid-body (a server killed by the test): there is no whole reply to check. */
async function record(method: string, url: string, response: Response): Promise<RecordedReply | undefined> {
  const contentType = response.headers.get('content-type');
  try {
    const body = contentType?.includes('json') ? await response.clone().text() : undefined;
    return { method, url, status: response.status, contentType, body };
  } catch {
    return undefined;
  }
}

/** The fetch before any wrapping: a worker that runs several test files wraps it once per file, each time anew. */
const ORIGINAL_FETCH = Symbol.for('wallet-checkout.contract-recorder.original-fetch');
type Fetch = typeof fetch;

/** Wraps the global fetch for this test file; a reply is recorded as it arrives, its body read from a clone. */
export function installRecorder(): void {
  const holder = globalThis as unknown as Record<symbol, Fetch | undefined>;
  const original = (holder[ORIGINAL_FETCH] ??= globalThis.fetch);
  globalThis.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const response = await original(input, init);
    if (serverOrigins.has(new URL(url).origin)) pending.push(record(method, url, response));
    return response;
  };
}

/** Everything recorded so far, and a fresh start (one test file's replies at a time). */
export async function takeRecorded(): Promise<RecordedReply[]> {
  const taken = await Promise.all(pending.splice(0));
  serverOrigins.clear();
  return taken.filter((reply) => reply !== undefined);
}
