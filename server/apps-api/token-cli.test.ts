import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LookupServer, startLookupServer } from '../../testing/apps-api';

const run = promisify(execFile);

describe('npm run token:dev', () => {
  let s: LookupServer;
  beforeAll(async () => {
    s = await startLookupServer();
  });
  afterAll(() => s.close());

  const cli = (env: Record<string, string>, ...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'server/apps-api/token-cli.ts', ...args], { env: { ...process.env, DATA_DIR: s.dataDir, ...env } });

  it('prints a token the server (sharing DATA_DIR) accepts, with the chosen scopes and client', async () => {
    const assessed = await s.createApp({ security_assessment_passed: true });
    const { stdout } = await cli({}, '--scope', 'docs', '--scope', 'storage.readonly', '--client-id', assessed.id);
    const token = stdout.trim();
    const reply = await fetch(`${s.url}/v3/apps/${assessed.id}?fields=id`, { headers: { authorization: `Bearer ${token}` } });
    expect(await reply.json()).toEqual({ id: assessed.id });
    const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ scope: 'https://www.googleapis.com/auth/docs https://www.googleapis.com/auth/storage.readonly', client_id: assessed.id });
  });

  it('refuses, exit 2, when a real issuer is configured, since the server would not trust it', async () => {
    const failed = await cli({ OAUTH_ISSUER: 'https://issuer.example/', OAUTH_AUDIENCE: 'a', OAUTH_JWKS: 'https://issuer.example/jwks' }, '--scope', 'docs').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('OAUTH_ISSUER is set') });
  });
});
