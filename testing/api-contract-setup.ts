/**
 * Vitest setup (vite.config.ts): every test file's replies from our servers
 * are recorded and, once the file is done, held against the OpenAPI document
 * (api-contract.ts); a reply the document does not describe fails the file.
 */
import { afterAll } from 'vitest';
import { installRecorder, takeRecorded } from './contract-recorder';

installRecorder();

afterAll(async () => {
  const replies = await takeRecorded();
  if (replies.length === 0) return;
  // Loaded only by files that called a server: the document and the validator cost a second or so, then about 1 ms a reply.
  const { contractViolations } = await import('./api-contract');
  const violations = await contractViolations(replies);
  if (violations.length > 0) throw new Error(`Replies the OpenAPI document does not describe (docs/api.md, "The OpenAPI document"):\n${violations.join('\n')}`);
}, 120_000);
