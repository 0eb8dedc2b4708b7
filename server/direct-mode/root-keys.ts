/**
 * Google's root signing keys (keys.json), as Google asks integrators to keep
 * them: fetched over https, cached for as long as the reply's Cache-Control
 * says, and refreshed in the background before that. A payment never waits
 * for a refresh: only when nothing usable is cached (the first use, or every
 * cached key past its keyExpiration) does a caller wait for keys.
 */
import { readFile } from 'node:fs/promises';
import CachePolicy from 'http-cache-semantics';
import { type RootSigningKey, RootSigningKeys } from '../../contracts';
import { type Failure, type Result, err, ok } from '../../common/result';

export interface RootKeySourceOptions {
  /** An https URL of a keys.json, or the path of one. */
  location: string;
  fetch?: typeof fetch;
  now?: () => number;
  /** Told when a refresh fails (the cached keys go on serving); never given payment data. */
  onRefreshFailed?: (failure: Failure) => void;
  /**
   * The sandbox's keys.json may come over http: the sandbox is a development service (on loopback or the
   * fleet's network) that the backend already trusts over that channel with its service key and charges.
   */
  plainHttpAllowed?: boolean;
}

export interface RootKeySource {
  /** The usable (unexpired) keys; starts a background refresh once the cached ones are due for one. */
  keys(): Promise<Result<readonly RootSigningKey[], Failure>>;
  /** Resolves when no refresh is under way. */
  settled(): Promise<void>;
}

/** A file says nothing of its lifetime: it is read again this often. */
const FILE_TTL_MS = 5 * 60_000;
/** However short a lifetime keys.json claims, it is not fetched more often than this. */
const MIN_TTL_MS = 60_000;
/** After a failed refresh, the next attempt waits this long (the cached keys serve meanwhile). */
const RETRY_AFTER_MS = 30_000;
/** Refreshed once this share of the lifetime has passed, so that fresh keys are there before it ends. */
const REFRESH_AT = 0.8;
const FETCH_TIMEOUT_MS = 5_000;

const unavailable = (why: string): Failure => ({ code: 'root_keys_unavailable', message: `Google's root signing keys could not be loaded (${why})` });

export function createRootKeySource(options: RootKeySourceOptions): RootKeySource {
  const now = options.now ?? Date.now;
  const fetchKeys = options.fetch ?? fetch;
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(options.location);
  let cached: { keys: readonly RootSigningKey[]; refreshAt: number } | undefined;
  let nextAttemptAt = 0;
  let inFlight: Promise<Failure | undefined> | undefined;

  const usable = (keys: readonly RootSigningKey[]) => keys.filter((key) => key.keyExpiration === undefined || Number(key.keyExpiration) > now());

  async function load(): Promise<Result<{ keys: readonly RootSigningKey[]; ttlMs: number }, Failure>> {
    let text: string;
    let ttlMs = FILE_TTL_MS;
    if (isUrl) {
      // The keys decide whose signatures are trusted: they only come over an authenticated channel.
      if (new URL(options.location).protocol !== 'https:' && !options.plainHttpAllowed) return err(unavailable('GOOGLE_ROOT_KEYS must be an https URL or a path'));
      const response = await fetchKeys(options.location, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), redirect: 'error' });
      if (response.status !== 200) return err(unavailable(`keys.json answered ${response.status}`));
      text = await response.text();
      const policy = new CachePolicy({ url: options.location, method: 'GET', headers: {} }, { status: response.status, headers: Object.fromEntries(response.headers) }, { shared: false });
      ttlMs = policy.timeToLive();
    } else {
      text = await readFile(options.location, 'utf8');
    }
    let parsed: ReturnType<typeof RootSigningKeys.safeParse>;
    try {
      parsed = RootSigningKeys.safeParse(JSON.parse(text));
    } catch {
      return err(unavailable('keys.json is not JSON'));
    }
    if (!parsed.success) return err(unavailable('keys.json is not a list of keys'));
    // A reply without one usable key would leave nothing to verify with: the cached keys are better.
    if (usable(parsed.data.keys).length === 0) return err(unavailable('keys.json has no unexpired key'));
    return ok({ keys: parsed.data.keys, ttlMs: Math.max(ttlMs, MIN_TTL_MS) });
  }

  const refresh = (): Promise<Failure | undefined> =>
    (inFlight ??= (async () => {
      const started = now();
      const loaded = await load().catch((error: unknown) => err(unavailable(error instanceof Error ? error.message : String(error))));
      if (loaded.ok) {
        cached = { keys: loaded.value.keys, refreshAt: started + loaded.value.ttlMs * REFRESH_AT };
        return undefined;
      }
      nextAttemptAt = now() + RETRY_AFTER_MS;
      options.onRefreshFailed?.(loaded.error);
      return loaded.error;
    })().finally(() => {
      inFlight = undefined;
    }));

  return {
    async keys() {
      if (cached) {
        const t = now();
        if (t >= cached.refreshAt && t >= nextAttemptAt) void refresh();
        const keys = usable(cached.keys);
        if (keys.length > 0) return ok(keys);
      }
      const failure = await refresh();
      const keys = cached ? usable(cached.keys) : [];
      return keys.length > 0 ? ok(keys) : err(failure ?? unavailable('every cached key has expired'));
    },
    async settled() {
      await inFlight;
    },
  };
}
