/**
 * One load of the mount (mount-load.ts), without a browser: the page's view or the backend's, a
 * session past its start placed by the payment flow before any button, the wallet asked for last,
 * and nothing heard once a newer load or `stop` aborted it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicSession } from '../../contracts';
import { outcome, refused, session } from './flow-fixtures';
import type { PaymentFlow } from './flow-host';
import { checkCarried, loadSession } from './mount-load';

/** A load with fakes for the backend, the flow and the wallet; `heard` lists what the widget was told, in order. */
function load(options: { taken?: PublicSession; fetched?: PublicSession | Error; resumes?: boolean; flowFails?: boolean; wallet?: boolean; signal?: AbortSignal }) {
  const heard: unknown[] = [];
  const flow = { resume: vi.fn(() => options.resumes ?? true) } as unknown as PaymentFlow;
  const fetchSession = vi.fn(async () => {
    if (options.fetched instanceof Error) throw options.fetched;
    return options.fetched ?? session('open');
  });
  const loadFlow = vi.fn(async () => (options.flowFails ? Promise.reject(new Error('no chunk')) : flow));
  const walletReady = vi.fn(async () => options.wallet ?? true);
  const done = loadSession(
    options.signal ?? new AbortController().signal,
    options.taken ?? null,
    fetchSession,
    loadFlow,
    walletReady,
    (s, draw) => heard.push(['session', s.status, draw]),
    (err, flowUnavailable) => heard.push(['failed', (err as Error).message, flowUnavailable ?? false]),
    (ready) => heard.push(['wallet', ready]),
  );
  return { done, heard, fetchSession, loadFlow, walletReady, flow };
}

describe('a load', () => {
  it("takes the page's view without asking the backend, and draws it only with its button", async () => {
    const { done, heard, fetchSession } = load({ taken: session('open') });
    await done;
    expect(fetchSession).not.toHaveBeenCalled();
    expect(heard).toEqual([
      ['session', 'open', false],
      ['wallet', true],
    ]);
  });

  it('asks the backend without a view from the page, and shows a failure through the flow', async () => {
    const asked = load({});
    await asked.done;
    expect(asked.heard).toContainEqual(['wallet', true]);
    expect(asked.fetchSession).toHaveBeenCalledOnce();
    const failing = load({ fetched: refused(404, 'session_not_found') });
    await failing.done;
    expect(failing.heard).toEqual([['failed', 'answered 404', false]]);
    expect(failing.walletReady).not.toHaveBeenCalled();
  });

  it('has a session past its start placed by the flow before the wallet, drawn while the flow comes', async () => {
    const declined = load({ taken: session('declined', outcome('declined')) });
    await declined.done;
    expect(declined.flow.resume).toHaveBeenCalledWith(session('declined', outcome('declined')));
    expect(declined.heard).toEqual([
      ['session', 'declined', true],
      ['wallet', true],
    ]);
    const paid = load({ taken: session('succeeded', outcome('succeeded')), resumes: false });
    await paid.done;
    expect(paid.walletReady).not.toHaveBeenCalled();
    expect(paid.heard).toEqual([
      ['session', 'succeeded', true],
      ['session', 'succeeded', true],
    ]);
    const open = load({ taken: session('open') });
    await open.done;
    expect(open.loadFlow).not.toHaveBeenCalled();
  });

  it("tells when the flow's code cannot be had for a resumed session, and when the wallet cannot be had", async () => {
    const noFlow = load({ taken: session('processing'), flowFails: true });
    await noFlow.done;
    expect(noFlow.heard).toEqual([
      ['session', 'processing', true],
      ['failed', 'no chunk', true],
    ]);
    const noWallet = load({ wallet: false });
    await noWallet.done;
    expect(noWallet.heard).toContainEqual(['wallet', false]);
  });

  it('hears nothing once aborted (a newer load, or the widget stopped)', async () => {
    const ctl = new AbortController();
    const aborted = load({ fetched: new Error('offline'), signal: ctl.signal });
    ctl.abort();
    await aborted.done;
    expect(aborted.heard).toEqual([]);
    const late = new AbortController();
    const walletLate = load({ signal: late.signal });
    late.abort();
    await walletLate.done;
    expect(walletLate.heard).toEqual([]);
  });
});

describe("the page's view checked", () => {
  afterEach(() => void vi.unstubAllGlobals());

  it('asks the backend once the page is idle, and hears its status or its refusal unless cancelled', async () => {
    vi.stubGlobal('window', { requestIdleCallback: (run: () => void) => run() });
    const answers: unknown[] = [];
    checkCarried(async () => session('succeeded'), (answer) => answers.push(answer));
    checkCarried(() => Promise.reject(refused(410, 'session_expired')), (answer) => answers.push(answer));
    await Promise.resolve();
    await Promise.resolve();
    expect(answers).toEqual([{ status: 'succeeded' }, { error: refused(410, 'session_expired') }]);
    const cancelled = checkCarried(() => Promise.reject(new Error('aborted')), (answer) => answers.push(answer));
    cancelled.abort();
    await Promise.resolve();
    expect(answers).toHaveLength(2);
  });
});
