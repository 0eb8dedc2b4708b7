/**
 * Every operator command's --help (server/lib/command-line.ts) explains each of its flags and shows
 * it in an example, as the command itself prints it; and every example is a command line its
 * parser takes.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APP_CREATE, APP_ROLL_KEY, APP_UPDATE } from '../apps/commands';
import { TOKEN_DEV } from '../apps-api/token-command';
import { DIRECT_KEYS } from '../direct-mode/command';
import type { Command } from './command-line';

const run = promisify(execFile);

const COMMANDS: [string, string, Command][] = [
  ['app:create', 'server/apps/cli.ts', APP_CREATE],
  ['app:update', 'server/apps/update-cli.ts', APP_UPDATE],
  ['app:roll-key', 'server/apps/roll-key-cli.ts', APP_ROLL_KEY],
  ['direct-keys', 'server/direct-mode/cli.ts', DIRECT_KEYS],
  ['token:dev', 'server/apps-api/token-cli.ts', TOKEN_DEV],
];

it('covers every command package.json runs from server/', async () => {
  const { scripts } = (await import('../../package.json', { with: { type: 'json' } })).default as { scripts: Record<string, string> };
  const fromServer = Object.entries(scripts).filter(([, line]) => /^tsx server\/.*cli\.ts$/.test(line));
  expect(fromServer.map(([name, line]) => [name, line.slice('tsx '.length)]).sort()).toEqual(COMMANDS.map(([name, file]) => [name, file]).sort());
});

describe.each(COMMANDS)('npm run %s -- --help', (name, file, command) => {
  it('names each flag with what it does, and shows each in an example', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file, '--help']);
    expect(stdout).toMatch(new RegExp(`^Usage: npm run (-s )?${name} -- `));
    const flags = Object.entries(command.flags);
    expect(flags.length).toBeGreaterThan(0);
    for (const [flag, { help }] of flags) {
      expect(stdout, `--${flag}`).toMatch(new RegExp(`^  --${flag}\\b.*${help.slice(0, 30).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'm'));
      expect(command.examples.some((example) => example.split(' ').includes(`--${flag}`)), `an example with --${flag}`).toBe(true);
    }
    for (const example of command.examples) expect(stdout).toContain(example);
    for (const sub of Object.keys(command.commands ?? {})) expect(stdout).toMatch(new RegExp(`^  ${sub}\\b`, 'm'));
  });

  it('uses no flag in its examples that it does not take', () => {
    for (const example of command.examples) {
      const used = example.split(' ').filter((word) => word.startsWith('--') && word !== '--');
      expect(used.filter((flag) => !(flag.slice(2) in command.flags)), example).toEqual([]);
    }
  });
});
