import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once `url` answers 2xx; past `timeoutMs` rejects with what `explain` says (a process's output, a log).
 * Each probe asks for its connection to be closed and reads its body: a kept-alive one would wait in fetch's
 * pool for the caller's next request, and fail it if a reload or restart closed it meanwhile.
 */
export async function waitForOk(url: string, timeoutMs: number, explain: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const probe = () =>
    fetch(url, { headers: { connection: 'close' } }).then(
      async (response) => (await response.arrayBuffer(), response.ok),
      () => false,
    );
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer 2xx within ${timeoutMs} ms:\n${explain()}`);
    await sleep(50);
  }
}
