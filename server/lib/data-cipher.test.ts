import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createDataCipher, loadDataKey, rememberingSeals } from './data-cipher';

const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('data at rest', () => {
  const key = loadDataKey(undefined, join(dir, 'secrets', 'data.key'));
  const cipher = createDataCipher(key);

  it('round-trips and never stores the plaintext', () => {
    const sealed = cipher.seal('{"pan":"4111111111111111"}');
    expect(sealed).not.toContain('4111');
    expect(cipher.open(sealed)).toEqual({ ok: true, value: '{"pan":"4111111111111111"}' });
    expect(cipher.seal('same')).not.toBe(cipher.seal('same'));
  });

  it('refuses a tampered value or another key', () => {
    const sealed = cipher.seal('hello');
    const parts = sealed.split('.');
    parts[3] = Buffer.from('jello').toString('base64');
    expect(cipher.open(parts.join('.')).ok).toBe(false);
    expect(createDataCipher(Buffer.alloc(32, 1)).open(sealed).ok).toBe(false);
  });

  it('gives a blind index that equal values share, tied to its key and purpose, never the value', () => {
    const index = cipher.blindIndex('email', 'ada@example.com');
    expect(cipher.blindIndex('email', 'ada@example.com')).toBe(index);
    expect(index).not.toContain('ada');
    expect(cipher.blindIndex('email', 'bob@example.com')).not.toBe(index);
    expect(cipher.blindIndex('other', 'ada@example.com')).not.toBe(index);
    expect(createDataCipher(Buffer.alloc(32, 1)).blindIndex('email', 'ada@example.com')).not.toBe(index);
  });

  it("opens what a request's cipher sealed without decrypting it again, and the rest as the cipher does", () => {
    const decrypting = vi.spyOn(cipher, 'open');
    const sealedBefore = cipher.seal('on file');
    const request = rememberingSeals(cipher);
    const sealed = request.seal('{"address":"1 Main St"}');
    expect(request.open(sealed)).toEqual({ ok: true, value: '{"address":"1 Main St"}' });
    expect(decrypting).not.toHaveBeenCalled();
    // Sealed as any other value: the store's readers open it with the plain cipher.
    expect(cipher.open(sealed)).toEqual({ ok: true, value: '{"address":"1 Main St"}' });
    expect(request.open(sealedBefore)).toEqual({ ok: true, value: 'on file' });
    expect(request.open('v1.x.y.z').ok).toBe(false);
    expect(request.blindIndex('email', 'ada@example.com')).toBe(cipher.blindIndex('email', 'ada@example.com'));
    decrypting.mockRestore();
  });

  it('keeps a generated key in a private file and reuses it', () => {
    const file = join(dir, 'secrets', 'data.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadDataKey(undefined, file)).toEqual(key);
    expect(Buffer.from(readFileSync(file, 'utf8'), 'base64')).toHaveLength(32);
    expect(loadDataKey(Buffer.alloc(32, 7).toString('base64'), file)).toEqual(Buffer.alloc(32, 7));
  });
});
