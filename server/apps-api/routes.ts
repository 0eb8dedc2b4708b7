/**
 * `GET {base_url}/v3/apps/{appId}`: one App record for an OAuth 2.0 bearer.
 * Checks run cheapest first, so that nothing malformed costs a signature
 * check or a query: path, method, body, parameters, token, scopes, the app.
 */
import type { Request, RequestHandler } from 'express';
import { getAppProfile } from '../apps';
import type { AppLookupConfig } from '../config';
import { bearerCredential } from '../../common/http/auth';
import { carriesBody } from '../../common/http/body';
import { type Result, err, ok } from '../../common/result';
import { type Store, storeFailureOf } from '../store';
import { AppRecord, toAppRecord } from './app-record';
import { applySelection, parseFields, type Selection } from './fields';
import { type LookupFailure, sendLookupFailure } from './google-errors';
import { decodeAppId, matchAppsPath } from './path';
import { scopePolicy } from './scopes';
import { type AccessToken, type TrustedIssuer, trustedIssuer, verifyAccessToken } from './tokens';

export interface AppLookupOptions extends AppLookupConfig {
  store: Store;
  /** Where the development issuer's key is kept (when no issuer is configured). */
  dataDir: string;
  gatewayName: string;
}

interface SystemParameters {
  selection: Selection | undefined;
  prettyPrint: boolean;
  accessToken: string | undefined;
}

const parameter = (name: string, message: string): LookupFailure => ({ code: 'invalid_parameter', message, location: { name, type: 'parameter' } });

/**
 * Google's system parameters that apply to a JSON read. Anything else is
 * refused, as gRPC transcoding refuses a query parameter it cannot bind.
 */
function systemParameters(query: URLSearchParams): Result<SystemParameters, LookupFailure> {
  const names = [...query.keys()];
  const unknown = names.find((name) => !['fields', 'prettyPrint', 'alt', 'access_token'].includes(name));
  if (unknown !== undefined) return err(parameter(unknown, `Unknown query parameter: ${unknown}`));
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated !== undefined) return err(parameter(repeated, `${repeated} may be given once`));

  const alt = query.get('alt');
  if (alt !== null && alt !== 'json') return err(parameter('alt', 'alt: only json is available'));
  const prettyPrint = query.get('prettyPrint');
  if (prettyPrint !== null && prettyPrint !== 'true' && prettyPrint !== 'false') return err(parameter('prettyPrint', 'prettyPrint is true or false'));
  const fields = query.get('fields');
  const selection = fields === null ? undefined : parseFields(fields, AppRecord);
  if (selection && !selection.ok) return selection;
  return ok({ selection: selection?.value, prettyPrint: prettyPrint !== 'false', accessToken: query.get('access_token') ?? undefined });
}

/** RFC 6750: the Authorization header or the access_token query parameter, never both. */
function credential(req: Request, fromQuery: string | undefined): Result<{ token: string; location: NonNullable<LookupFailure['location']> }, LookupFailure> {
  const fromHeader = bearerCredential(req);
  if (fromHeader !== undefined && fromQuery !== undefined) return err({ code: 'invalid_request', message: 'Send the access token in one place: the Authorization header or access_token' });
  if (fromHeader !== undefined) return ok({ token: fromHeader, location: { name: 'Authorization', type: 'header' } });
  if (fromQuery !== undefined) return ok({ token: fromQuery, location: { name: 'access_token', type: 'parameter' } });
  return err({ code: 'credentials_required', message: 'Request is missing a required credential: an OAuth 2.0 access token', location: { name: 'Authorization', type: 'header' } });
}

/** The store down is Google's UNAVAILABLE (retryable), in the API's own shape; anything else is a bug for the app's handler. */
function storeDown(error: unknown): Result<never, LookupFailure> {
  const failure = storeFailureOf(error);
  if (!failure) throw error;
  return err(failure);
}

export function appLookupRoutes(options: AppLookupOptions): RequestHandler {
  const { store, basePaths, realm } = options;
  const issuer: TrustedIssuer = trustedIssuer(options.issuer, options.dataDir);
  const scopes = scopePolicy(options.scopeBase);

  /** Whether the token's scopes let its client read apps: one accepted scope, and an assessment if all it holds are restricted. */
  async function authorize(token: AccessToken): Promise<Result<void, LookupFailure>> {
    const accepted = token.scopes.filter((scope) => scopes.accepted.includes(scope));
    if (accepted.length === 0) return err({ code: 'insufficient_scope', message: 'Request had insufficient authentication scopes', scopes: scopes.accepted });
    if (!accepted.every(scopes.isRestricted)) return ok(undefined);
    const client = await getAppProfile(store, token.clientId);
    if (client?.profile.securityAssessmentPassed) return ok(undefined);
    return err({
      code: 'security_assessment_required',
      message: 'The client application has not passed the security assessment its restricted scopes require; use an unrestricted scope',
      scopes: scopes.unrestricted,
    });
  }

  async function lookup(req: Request, segment: string): Promise<Result<{ body: unknown; prettyPrint: boolean }, LookupFailure>> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return err({ code: 'method_not_allowed', message: `${req.method} is not allowed here: apps.get is GET` });
    const appId = decodeAppId(segment);
    if (!appId.ok) return appId;
    if (carriesBody(req)) return err({ code: 'body_not_allowed', message: 'apps.get takes no request body' });
    const params = systemParameters(new URL(req.url, 'http://localhost').searchParams);
    if (!params.ok) return params;

    const presented = credential(req, params.value.accessToken);
    if (!presented.ok) return presented;
    const token = await verifyAccessToken(presented.value.token, issuer);
    if (!token.ok) return err({ ...token.error, location: presented.value.location });
    const authorized = await authorize(token.value);
    if (!authorized.ok) return authorized;

    const found = await getAppProfile(store, appId.value);
    if (!found) return err({ code: 'app_not_found', message: `App not found: ${appId.value}`, location: { name: 'appId', type: 'parameter' } });
    const record = toAppRecord(found.app, found.profile, options.gatewayName);
    const { selection, prettyPrint } = params.value;
    return ok({ body: selection ? applySelection(record, selection) : record, prettyPrint });
  }

  // A middleware, not a router: a router whose last layer calls next() hands the request on a turn of the event loop later (server/http/same-turn.test.ts), and every request passes by this one.
  return async (req, res, next) => {
    const match = matchAppsPath(req.path, basePaths);
    if (match === undefined) return next();
    const outcome = match === 'no_route' ? err<LookupFailure>({ code: 'no_route', message: 'No such method: the path is {base_url}/v3/apps/{appId}' }) : await lookup(req, match.segment).catch(storeDown);
    if (!outcome.ok) return sendLookupFailure(res, outcome.error, realm);
    // RFC 6750 section 2.3: a response to a token in the URI must not be cached by shared caches.
    res.set('Cache-Control', 'private, max-age=0');
    res.type('json').send(JSON.stringify(outcome.value.body, null, outcome.value.prettyPrint ? 2 : undefined));
  };
}
