/**
 * The development issuer: an OAuth 2.0 authorization server reduced to one
 * signing key, so that the embedded default can be called with real JWT
 * access tokens. The key lives under DATA_DIR/dev-issuer/, shared by the
 * server (which trusts it only when no real issuer is configured) and `npm run token:dev`.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { existsSync, linkSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type JSONWebKeySet, SignJWT } from 'jose';
import { z } from 'zod';
import { privateDirectory } from '../../common/private-files';
import { randomId } from '../../common/secrets';

const KeyFile = z.object({ kid: z.string().min(1), private_key_pkcs8: z.string().min(1) });

export interface DevTokenClaims {
  /** Full scope strings. */
  scopes: string[];
  /** The calling client application (RFC 9068 `client_id`). */
  clientId: string;
  subject: string;
  lifetimeSeconds: number;
}

export interface DevIssuer {
  issuer: string;
  audience: string;
  jwks: JSONWebKeySet;
  sign(claims: DevTokenClaims): Promise<string>;
}

/**
 * Created once. Written aside and hard-linked into place, so that of two
 * processes starting at once neither can read a half-written file.
 */
function readOrCreateKeyFile(file: string): z.infer<typeof KeyFile> {
  if (!existsSync(file)) {
    const draft = `${file}.${process.pid}.${randomId(6)}`;
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    writeFileSync(draft, JSON.stringify({ kid: randomId(8), private_key_pkcs8: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64') }), { mode: 0o600 });
    try {
      linkSync(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(draft);
    }
  }
  return KeyFile.parse(JSON.parse(readFileSync(file, 'utf8')));
}

export function loadDevIssuer(dataDir: string): DevIssuer {
  const dir = join(dataDir, 'dev-issuer');
  privateDirectory(dir);
  const stored = readOrCreateKeyFile(join(dir, 'signing-key.json'));
  const privateKey = createPrivateKey({ key: Buffer.from(stored.private_key_pkcs8, 'base64'), format: 'der', type: 'pkcs8' });
  const issuer = 'urn:wallet-checkout:dev-issuer';
  const audience = 'urn:wallet-checkout:apps-api';
  return {
    issuer,
    audience,
    jwks: { keys: [{ ...createPublicKey(privateKey).export({ format: 'jwk' }), kid: stored.kid, alg: 'ES256', use: 'sig' }] },
    sign: (claims) =>
      // The JWT access token profile (RFC 9068).
      new SignJWT({ scope: claims.scopes.join(' '), client_id: claims.clientId })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: stored.kid })
        .setIssuer(issuer)
        .setAudience(audience)
        .setSubject(claims.subject)
        .setIssuedAt()
        .setExpirationTime(`${claims.lifetimeSeconds}s`)
        .setJti(randomId())
        .sign(privateKey),
  };
}
