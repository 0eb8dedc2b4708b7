/**
 * What the operator's commands (app:create, app:update, app:roll-key, direct-keys, token:dev) do
 * alike with their command line. Each declares its flags once, with what each does, and examples
 * that use every one (a `Command`); from that the parser takes its options and `--help` its text,
 * so the help cannot leave a flag out (command-line.test.ts runs each command's). A mistake is
 * refused with what is wrong and the usage, exiting 2 (parseArgs names the option it did not
 * understand; a stack trace would only hide it), and an invalid configuration (which each command
 * loads as the server would) with what is wrong in it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface Flag {
  type: 'string' | 'boolean';
  /** Given again for each value (`--origin A --origin B`). */
  multiple?: boolean;
  default?: string | readonly string[];
  /** What a string flag takes, as the usage writes it: NAME, APP_ID, https://shop.example. */
  value?: string;
  /** Without it the command refuses to run (the command checks; the help says so). */
  required?: boolean;
  /** What it does, and what it defaults to. */
  help: string;
}

export interface Command<F extends Record<string, Flag> = Record<string, Flag>> {
  /** How it is run, up to its flags: `npm run app:create --`. */
  run: string;
  /** What it does, in a sentence or two. */
  summary: string;
  /** Its sub-commands (direct-keys create, list...), each with what it does; none: it takes no positional argument. */
  commands?: Record<string, string>;
  flags: F;
  /** Whole command lines; every flag is used in one of them. */
  examples: string[];
}

type ValueOf<F extends Flag> = F['type'] extends 'boolean' ? boolean : F extends { multiple: true } ? string[] : string;
/** The parsed flags: a flag with a default is always there. */
export type FlagValues<F extends Record<string, Flag>> = { [K in keyof F]: F[K] extends { default: unknown } ? ValueOf<F[K]> : ValueOf<F[K]> | undefined };

/** The text `--help` prints: usage, what it does, each sub-command and flag, the examples. */
export function helpText(command: Command): string {
  const flagOf = (name: string, flag: Flag) => `--${name}${flag.type === 'string' ? ` ${flag.value ?? 'VALUE'}` : ''}`;
  const entries = Object.entries(command.flags);
  const required = entries.filter(([, flag]) => flag.required).map(([name, flag]) => flagOf(name, flag));
  const usage = [command.run, ...(command.commands ? ['COMMAND'] : []), ...required, ...(entries.length > required.length ? ['[flags]'] : [])].join(' ');
  const column = (rows: [string, string][]) => {
    const width = Math.max(...rows.map(([left]) => left.length)) + 2;
    return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`);
  };
  const flagRows: [string, string][] = entries.map(([name, flag]) => [
    flagOf(name, flag),
    `${flag.required ? '(required) ' : ''}${flag.help}${flag.multiple ? ' (repeat it for more than one)' : ''}`,
  ]);
  flagRows.push(['-h, --help', 'this help']);
  return [
    `Usage: ${usage}`,
    '',
    command.summary,
    ...(command.commands ? ['', 'Commands:', ...column(Object.entries(command.commands))] : []),
    '',
    'Flags:',
    ...column(flagRows),
    '',
    'Examples:',
    ...command.examples.map((example) => `  ${example}`),
  ].join('\n');
}

export interface CommandLine<F extends Record<string, Flag>> {
  /** Says what is wrong, then the usage, and exits 2. */
  fail(message: string): never;
  /** The parsed command line; `--help` prints the help and exits 0. */
  parse(): { values: FlagValues<F>; positionals: string[] };
  /** The configuration the command loaded; if it is invalid, says each problem and exits 2. */
  validConfig<T>(loaded: { ok: true; config: T } | { ok: false; problems: string[] }): T;
}

export function commandLine<const F extends Record<string, Flag>>(command: Command<F>): CommandLine<F> {
  const usage = helpText(command).split('\n')[0]!;
  const fail = (message: string): never => {
    console.error(`${message}\n${usage}\n(--help: every flag, with examples)`);
    process.exit(2);
  };
  const options: ParseArgsConfig['options'] = Object.fromEntries([
    ...Object.entries(command.flags).map(([name, { type, multiple, default: fallback }]) => [name, { type, ...(multiple && { multiple }), ...(fallback !== undefined && { default: fallback }) }]),
    ['help', { type: 'boolean', short: 'h' }],
  ]);
  return {
    fail,
    parse() {
      let parsed;
      try {
        parsed = parseArgs({ options, allowPositionals: true });
      } catch (error) {
        return fail((error as Error).message);
      }
      if ((parsed.values as { help?: boolean }).help) {
        console.log(helpText(command));
        process.exit(0);
      }
      if (!command.commands && parsed.positionals.length > 0) fail(`Unexpected argument: ${parsed.positionals.join(' ')}`);
      return { values: parsed.values as FlagValues<F>, positionals: parsed.positionals };
    },
    validConfig(loaded) {
      if (loaded.ok) return loaded.config;
      console.error(`Configuration is invalid:\n  ${loaded.problems.join('\n  ')}`);
      process.exit(2);
    },
  };
}
