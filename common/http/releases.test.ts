import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { archivedReleaseRoutes, archiveRelease } from './releases';

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'wallet-checkout-releases-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A build as Vite leaves it: each versioned script with its brotli and gzip copies, and a manifest naming them. */
function build(release: string) {
  const dir = tempDir();
  const file = `checkout.${release}.js`;
  writeFileSync(join(dir, file), `/* release ${release} */`);
  writeFileSync(join(dir, `${file}.br`), `brotli of ${release}`);
  writeFileSync(join(dir, `${file}.gz`), `gzip of ${release}`);
  writeFileSync(join(dir, 'checkout.js'), `/* release ${release} */`);
  return { dir, file, manifest: { 'checkout.js': { file, integrity: `sha384-${release}` } } };
}

async function serve(archiveDir: string) {
  const app = express().use(archivedReleaseRoutes(archiveDir));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('earlier releases of the widget', () => {
  it('are still served, immutable and to any origin, after a later build replaced them', async () => {
    const archive = tempDir();
    const first = build('aaaaaaaaaaaa');
    archiveRelease(first.manifest, archive, first.dir);
    rmSync(first.dir, { recursive: true });
    const second = build('bbbbbbbbbbbb');
    archiveRelease(second.manifest, archive, second.dir);

    const server = await serve(archive);
    try {
      for (const release of [first, second]) {
        const reply = await fetch(`${server.url}/${release.file}`, { headers: { 'Accept-Encoding': 'identity' } });
        expect(reply.status).toBe(200);
        expect(await reply.text()).toBe(`/* release ${release.file.split('.')[1]} */`);
        expect(reply.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
        expect(reply.headers.get('access-control-allow-origin')).toBe('*');
        expect(reply.headers.get('content-type')).toMatch(/javascript/);
      }
      const compressed = await fetch(`${server.url}/${first.file}`, { headers: { 'Accept-Encoding': 'br' }, decompress: false } as RequestInit);
      expect(compressed.headers.get('content-encoding')).toBe('br');
    } finally {
      await server.close();
    }
  });

  it('never rewrite an archived file, and keep nothing but versioned names', () => {
    const archive = tempDir();
    const release = build('cccccccccccc');
    writeFileSync(join(archive, release.file), 'archived first');
    archiveRelease({ ...release.manifest, 'notes.txt': { file: 'notes.txt', integrity: '' } }, archive, release.dir);
    writeFileSync(join(release.dir, 'notes.txt'), 'not a release');
    expect(readFileSync(join(archive, release.file), 'utf8')).toBe('archived first');
    expect(readFileSync(join(archive, `${release.file}.gz`), 'utf8')).toBe('gzip of cccccccccccc');
    expect(() => readFileSync(join(archive, 'notes.txt'))).toThrow();
  });

  it('answer nothing for a name not archived, or not a versioned name', async () => {
    const archive = tempDir();
    writeFileSync(join(archive, 'secret.txt'), 'not for the web');
    const server = await serve(archive);
    try {
      for (const path of ['/checkout.dddddddddddd.js', '/secret.txt', '/..%2Fsecret.txt', '/checkout.js']) {
        expect((await fetch(`${server.url}${path}`)).status, path).toBe(404);
      }
    } finally {
      await server.close();
    }
  });
});
