/**
 * Where a V8 CPU profile's time went (`node --cpu-prof`): self time by
 * package (node_modules/<name>, node: internals, our own files, V8's
 * garbage collector and the rest) and by function, largest first; only the
 * samples taken within `windowUs` (the monotonic clock V8 times them on) when given.
 *   npx tsx scripts/bench/cpu-profile.ts FILE.cpuprofile [top] [startUs endUs]
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** `express` for .../node_modules/express/lib/x.js, `@scope/name` for a scoped one; the file for ours; `(program)`, `(garbage collector)`, `node:internal` as V8 names them. */
function packageOf({ functionName, url }: ProfileNode['callFrame']): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inModules) return inModules[1] as string;
  if (url.startsWith('node:')) return 'node: internals';
  return url.replace(/^file:\/\/.*?\/(server|scripts|dist)\//, '$1/');
}

function table(totals: Map<string, number>, totalMs: number, top: number): string {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => `  ${((ms / totalMs) * 100).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${name}`)
    .join('\n');
}

/** The main thread's profile among those `--cpu-prof` wrote in `dir` (one per thread): the largest. */
export function mainThreadProfile(dir: string): string {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(dir, name));
  const largest = files.sort((a, b) => statSync(b).size - statSync(a).size)[0];
  if (!largest) throw new Error(`no CPU profile in ${dir}`);
  return largest;
}

export function summarizeProfile(file: string, options: { top?: number; windowUs?: { start: number; end: number } } = {}): string {
  const { top = 25, windowUs } = options;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byPackage = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const ms = delta / 1000;
    if (windowUs && (at < windowUs.start || at > windowUs.end)) return;
    if (!node || node.callFrame.functionName === '(idle)') return;
    totalMs += ms;
    const pkg = packageOf(node.callFrame);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + ms);
    const where = `${node.callFrame.functionName || '(anonymous)'} ${pkg}:${node.callFrame.lineNumber + 1}`;
    byFunction.set(where, (byFunction.get(where) ?? 0) + ms);
  });
  return [`busy ${totalMs.toFixed(0)} ms (idle left out); self time by package:`, table(byPackage, totalMs, top), 'by function:', table(byFunction, totalMs, top)].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, top, start, end] = process.argv.slice(2);
  if (!file) throw new Error('usage: npx tsx scripts/bench/cpu-profile.ts FILE.cpuprofile [top] [startUs endUs]');
  const windowUs = start && end ? { start: Number(start), end: Number(end) } : undefined;
  console.log(summarizeProfile(file, { top: top ? Number(top) : undefined, windowUs }));
}
