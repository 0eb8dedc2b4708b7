/**
 * Child processes a test, a soak or a bench starts are killed if this process exits first: a caller
 * that throws or is interrupted must not leave servers running. One listener on the process's
 * `exit` for them all, and each child leaves the set when it exits: a listener per child stayed
 * for good, and a bench that starts two fleets passed Node's warning limit of 10.
 */
import type { ChildProcess } from 'node:child_process';

const live = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

/** Kills `child` (SIGKILL, by its own pid) if this process exits while it runs. */
export function killOnExit(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  live.add(child);
  child.once('exit', () => live.delete(child));
}

/** How many children killOnExit holds now. */
export const childrenKilledOnExit = (): number => live.size;
