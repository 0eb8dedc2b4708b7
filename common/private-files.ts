/**
 * DATA_DIR holds the store, keys and secrets: only the server's own user may
 * read it. Directories are 0700 and files 0600 whatever the umask, and ones
 * an earlier version left readable by others are tightened.
 */
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';

const PRIVATE_DIRECTORY = 0o700;
const PRIVATE_FILE = 0o600;

function tighten(path: string, mode: number): void {
  if ((statSync(path).mode & 0o777) !== mode) chmodSync(path, mode);
}

/** Creates `dir` (and any missing parent) 0700, or makes an existing one 0700. */
export function privateDirectory(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIRECTORY });
  tighten(dir, PRIVATE_DIRECTORY);
}

/** Makes each file that exists 0600; creates the first, empty, if it does not. */
export function privateFiles(create: string, ...others: string[]): void {
  closeSync(openSync(create, 'a', PRIVATE_FILE));
  for (const file of [create, ...others]) if (existsSync(file)) tighten(file, PRIVATE_FILE);
}
