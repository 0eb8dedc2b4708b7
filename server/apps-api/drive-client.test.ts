/**
 * Google's own Node client for Drive (@googleapis/drive), whose scopes the
 * apps API document's are, pointed at our server as its root URL: `drive.apps.get`
 * requests `{rootUrl}drive/v3/apps/{appId}`, served by the `/drive` base path.
 */
import { auth, drive } from '@googleapis/drive';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LookupServer, startLookupServer } from '../../testing/apps-api';

describe('the official Google API client for Node (@googleapis/drive v3)', () => {
  let s: LookupServer;
  let appId: string;
  let client: ReturnType<typeof drive>;
  let token: string;

  beforeAll(async () => {
    s = await startLookupServer();
    ({ id: appId } = await s.createApp({ product_url: 'https://corner.example/', icons: [{ category: 'application', icon_url: 'https://corner.example/i.png', size: 48 }] }));
    token = await s.token(['storage.apps.readonly']);
    const oauth = new auth.OAuth2();
    oauth.setCredentials({ access_token: token });
    client = drive({ version: 'v3', rootUrl: `${s.url}/`, auth: oauth });
  });
  afterAll(() => s.close());

  it('reads an App record with apps.get', async () => {
    const { status, data } = await client.apps.get({ appId });
    expect(status).toBe(200);
    expect(data).toMatchObject({ kind: 'walletcheckout#app', id: appId, name: 'Corner Shop', productUrl: 'https://corner.example/', icons: [{ category: 'application', iconUrl: 'https://corner.example/i.png', size: 48 }] });
    expect(data).toHaveProperty('checkout.gatewayMerchantId', 'mrchnt_corner_1');
  });

  it('passes fields and the access_token parameter through', async () => {
    const anonymous = drive({ version: 'v3', rootUrl: `${s.url}/` });
    const { data } = await anonymous.apps.get({ appId, fields: 'id,icons(size)', access_token: token });
    expect(data).toEqual({ id: appId, icons: [{ size: 48 }] });
  });

  it('surfaces our errors as Google errors: code, message and errors[]', async () => {
    const failure = (await client.apps.get({ appId: 'app_unknown' }).catch((error: unknown) => error)) as { status: number; message: string; response: { data: { error: { errors: unknown[] } } } };
    expect([failure.status, failure.message]).toEqual([404, 'App not found: app_unknown']);
    expect(failure.response.data.error.errors).toEqual([{ domain: 'global', reason: 'notFound', message: 'App not found: app_unknown', location: 'appId', locationType: 'parameter' }]);
  });
});
