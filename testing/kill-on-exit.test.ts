/**
 * Children started by tests, soaks and benches die with the process that started them, whatever
 * number of them it starts, without a listener on the process's `exit` for each.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { childrenKilledOnExit, killOnExit } from './kill-on-exit';

const sleeper = (): ChildProcess => spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
const isRunning = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('children killed on exit', () => {
  it('are held under one exit listener, however many, and let go once they exit', async () => {
    const listenersBefore = process.listenerCount('exit');
    const children = Array.from({ length: 12 }, sleeper);
    for (const child of children) killOnExit(child);
    expect(process.listenerCount('exit')).toBe(listenersBefore);
    expect(childrenKilledOnExit()).toBe(12);
    await Promise.all(children.map((child) => (child.kill('SIGKILL'), once(child, 'exit'))));
    expect(childrenKilledOnExit()).toBe(0);
  });

  it('die when the process that started them exits', async () => {
    const parent = spawn(process.execPath, ['--import', 'tsx', '-e', `
      import { spawn } from 'node:child_process';
      import { killOnExit } from './testing/kill-on-exit.ts';
      const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
      killOnExit(child);
      console.log(child.pid);
      setTimeout(() => process.exit(0), 200);
    `], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    parent.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await once(parent, 'exit');
    const pid = Number(out.trim());
    expect(pid).toBeGreaterThan(0);
    for (const deadline = Date.now() + 5_000; isRunning(pid) && Date.now() < deadline; ) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(isRunning(pid)).toBe(false);
  });
});
