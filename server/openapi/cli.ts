/**
 * npm run lint:openapi: writes the OpenAPI document to the file named, for
 * the linters (redocly.yaml, .spectral.yaml) to read as a merchant's tools would.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { openApiDocument } from './document';

const file = process.argv[2];
if (!file) {
  console.error('usage: tsx server/openapi/cli.ts <file.json>');
  process.exit(2);
}
mkdirSync(dirname(file), { recursive: true });
// The server's own origin is known only where it runs: a reserved name (RFC 2606) stands in.
writeFileSync(file, `${JSON.stringify(openApiDocument('https://wallet-checkout.invalid'), null, 2)}\n`);
