import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `url` answers 2xx; past `timeoutMs` rejects with what `explain` says (a process's output, a log). */
export async function waitForOk(url: string, timeoutMs: number, explain: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await fetch(url).then((r) => r.ok, () => false))) {
    if (Date.now() > deadline) throw new Error(`${url} did not answer 2xx within ${timeoutMs} ms:\n${explain()}`);
    await sleep(50);
  }
}
