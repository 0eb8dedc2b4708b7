/**
 * What the operator's commands (app:create, app:update, app:roll-key,
 * direct-keys) do alike with their command line: answer --help with the usage,
 * refuse a mistake with what is wrong and the usage, exiting 2 (parseArgs names
 * the option it did not understand; a stack trace would only hide it), and
 * refuse an invalid configuration (which each command loads as the server
 * would) with what is wrong in it.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CommandLine {
  /** Says what is wrong, then the usage, and exits 2. */
  fail(message: string): never;
  /** The parsed command line; `--help` (which `config.options` must declare) prints the usage and exits 0. */
  parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>>;
  /** The configuration the command loaded; if it is invalid, says each problem and exits 2. */
  validConfig<T>(loaded: { ok: true; config: T } | { ok: false; problems: string[] }): T;
}

export function commandLine(usage: string): CommandLine {
  const fail = (message: string): never => {
    console.error(`${message}\n${usage}`);
    process.exit(2);
  };
  return {
    fail,
    parse(config) {
      let parsed;
      try {
        parsed = parseArgs(config);
      } catch (error) {
        return fail((error as Error).message);
      }
      if ((parsed.values as { help?: boolean }).help) {
        console.log(usage);
        process.exit(0);
      }
      return parsed;
    },
    validConfig(loaded) {
      if (loaded.ok) return loaded.config;
      console.error(`Configuration is invalid:\n  ${loaded.problems.join('\n  ')}`);
      process.exit(2);
    },
  };
}
