/** `npm run token:dev`'s command line (token-cli.ts; server/lib/command-line.ts): its flags and examples. */
import type { Command } from '../lib/command-line';

export const TOKEN_DEV = {
  run: 'npm run -s token:dev --',
  summary:
    'Prints an access token signed by the development issuer, for calling the apps API of a server that has no real issuer configured (docs/apps-api.md). -s keeps npm quiet, so $(npm run -s token:dev -- ...) is the token alone.',
  flags: {
    scope: { type: 'string', multiple: true, default: [], value: 'NAME', help: 'a scope the token grants: a name under OAUTH_SCOPE_BASE (docs, storage.readonly...) or a whole scope URL' },
    'client-id': { type: 'string', default: 'token-dev', value: 'CLIENT', help: 'the OAuth client the token names (default token-dev)' },
    subject: { type: 'string', default: 'dev-user', value: 'SUBJECT', help: 'the user the token stands for (default dev-user)' },
    lifetime: { type: 'string', default: '3600', value: 'SECONDS', help: 'how long the token is valid (default 3600)' },
  },
  examples: [
    'npm run -s token:dev -- --scope docs --scope storage.readonly',
    'npm run -s token:dev -- --scope https://www.googleapis.com/auth/drive --client-id app_123 --subject alice --lifetime 600',
  ],
} as const satisfies Command;
