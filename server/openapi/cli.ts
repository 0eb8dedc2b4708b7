/**
 * Writes the OpenAPI document, by default to dist/openapi/openapi.json, for the linters
 * (redocly.yaml, .spectral.yaml, `npm run lint:openapi`) to read as a merchant's tools would, and
 * beside it api-types.ts, the client types generated from it (client-types.ts), which
 * generated-client.test.ts types its flow with: `npm run typecheck` writes them first, so a fresh
 * clone type-checks without a build.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { clientTypes } from './client-types';
import { openApiDocument } from './document';

const file = process.argv[2] ?? 'dist/openapi/openapi.json';
mkdirSync(dirname(file), { recursive: true });
// The server's own origin is known only where it runs: a reserved name (RFC 2606) stands in.
const document = openApiDocument('https://wallet-checkout.invalid');
writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
writeFileSync(join(dirname(file), 'api-types.ts'), await clientTypes(document));
