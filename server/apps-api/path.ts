/**
 * The path template `{base}/v3/apps/{appId}`, matched as gRPC transcoding
 * does: `{appId}` is a single-segment variable, exactly one non-empty segment,
 * percent-decoded. A decoded slash would make it two segments, so it is refused.
 */
import { isStorableText, UNSTORABLE_TEXT_MESSAGE } from '../../contracts';
import { type Result, err, ok } from '../../common/result';
import type { LookupFailure } from './google-errors';

type PathMatch = { segment: string } | 'no_route';

/** undefined: the path is not under any `{base}/v3/apps`, and belongs to other routes. */
export function matchAppsPath(path: string, basePaths: readonly string[]): PathMatch | undefined {
  for (const base of basePaths) {
    const collection = `${base}/v3/apps`;
    if (path !== collection && !path.startsWith(`${collection}/`)) continue;
    const segment = path.slice(collection.length + 1);
    return segment !== '' && !segment.includes('/') ? { segment } : 'no_route';
  }
  return undefined;
}

export function decodeAppId(segment: string): Result<string, LookupFailure> {
  const invalid = (message: string) => err<LookupFailure>({ code: 'invalid_app_id', message, location: { name: 'appId', type: 'parameter' } });
  if (/%2f/i.test(segment)) return invalid('appId is one path segment: an encoded "/" is not allowed');
  let appId: string;
  try {
    appId = decodeURIComponent(segment);
  } catch {
    return invalid('appId is not correctly percent-encoded');
  }
  // Refused before the store is asked: PostgreSQL cannot hold a NUL (contracts/text.ts).
  return isStorableText(appId) ? ok(appId) : invalid(`appId: ${UNSTORABLE_TEXT_MESSAGE}`);
}
