/**
 * The contract fuzz (docs/testing.md, "The contract fuzz"): every operation of the document the
 * server serves at /openapi.json, a property per operation (fast-check, one seed for the run), each
 * run a valid request or an invalid variant of one (requests.ts) sent to the real server in a
 * process of its own (target.ts). A run fails when the server answers 5xx or not at all (it died:
 * the server is started again and the run goes on with the next operation), answers a status the
 * operation does not declare or a body its schema does not describe (the per-reply contract check,
 * api-contract.ts), or accepts (2xx) a request the document does not allow. At the end the server
 * must still answer /healthz, and its heap must not have grown past a generous bound.
 */
import fc from 'fast-check';
import { type ContractChecker, contractChecker } from '../api-contract';
import { type FuzzRequest, type Operation, RequestJudge, operationsOf, requestArbitrary } from './requests';
import { type FuzzTarget, type WireReply, type WireRequest, startFuzzTarget } from './target';

export const DEFAULT_SEED = 20_260_033;
export const DEFAULT_RUNS = 100;
/** How much the server's heap may grow over a run: far above what a run leaves behind, far below a leak of its bodies. */
export const HEAP_GROWTH_BOUND_BYTES = 256 << 20;

export interface FuzzOptions {
  seed: number;
  /** Requests per operation (fast-check's numRuns). */
  runs: number;
  /** Only these operationIds (default: every one). */
  operations?: string[];
  /** fast-check's path of a failure, to replay it at once (with its seed and operation). */
  path?: string;
  log?: (line: string) => void;
}

export interface Finding {
  operation: string;
  /** What went wrong, and the request that showed it (after fast-check shrank it). */
  problem: string;
  /** The command that sends the same requests again. */
  replay: string;
}

export interface OperationStats {
  requests: number;
  /** Requests the document allows. */
  valid: number;
  statuses: Record<string, number>;
  slowestMs: number;
  slowest: string;
}

export interface FuzzReport {
  seed: number;
  runs: number;
  findings: Finding[];
  operations: Record<string, OperationStats>;
  crashes: number;
  aliveAtEnd: boolean;
  heapBeforeBytes: number;
  heapAfterBytes: number;
  durationMs: number;
}

/** One line about a request: what was broken, the method and path, the headers that matter, the body's start. */
export function describeRequest(request: FuzzRequest, wire: WireRequest): string {
  const path = wire.path.length > 160 ? `${wire.path.slice(0, 160)}... (${wire.path.length} chars)` : wire.path;
  const headers = Object.entries(wire.headers)
    .filter(([name]) => name !== 'authorization')
    .map(([name, value]) => `${name}: ${value.length > 60 ? `${value.slice(0, 60)}...` : value}`);
  const credential = request.credential === 'valid' ? '' : ` [credential: ${request.credential}]`;
  const body = wire.body ? ` body ${JSON.stringify(wire.body.subarray(0, 160).toString('latin1'))}${wire.body.length > 160 ? `... (${wire.body.length} bytes)` : ''}` : '';
  return `(${request.variant}) ${wire.method} ${path}${headers.length ? ` {${headers.join('; ')}}` : ''}${credential}${body}`;
}

/** A body this large may be cut off by the server's early reply (a 413, a 400 for a body on a GET). */
const CUT_OFF_BODY_BYTES = 64 << 10;

/** How many different problems one operation may report in a run: after each, the operation is fuzzed again with that kind of problem left out. */
const MAX_FINDINGS_PER_OPERATION = 5;

interface Problem {
  /** What kind of problem it is (a status, a code, what made a request invalid): one finding each. */
  kind: string;
  text: string;
}

class FuzzFailure extends Error {
  constructor(readonly problems: Problem[]) {
    super(problems.map((problem) => problem.text).join('\n'));
  }
}

const errorCodeOf = (body: string): string | undefined => {
  try {
    const code = (JSON.parse(body) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
};

/** A contract violation's kind: the undeclared status or code, or an invalid body. */
function violationKind(violation: string): string {
  const status = /declares no (\d+)/.exec(violation);
  if (status) return `undeclared status ${status[1]}`;
  const code = /does not declare the code (\S+)/.exec(violation);
  if (code) return `undeclared code ${code[1]}`;
  if (violation.includes('not valid against the document')) return 'a reply its schema does not describe';
  return violation.replace(/^\S+ \S+ answered \d+: /, '').slice(0, 60);
}

/** What made a request invalid, without the value: "body schema", "header idempotency-key", "Content-Type text/plain ...". */
const refusalKind = (refusal: string): string => (refusal.startsWith('body ') ? 'body schema' : refusal.replace(/: .*$/, ''));

/** The error a dead server printed last: its message, and where it was thrown (not the whole stack). */
function lastError(output: string): string | undefined {
  const lines = output.split('\n').map((line) => line.trim());
  let index = -1;
  lines.forEach((line, i) => {
    if (/^\w*Error\b|Error: /.test(line) && !line.startsWith('at ')) index = i;
  });
  if (index < 0) return undefined;
  const frame = lines.slice(index + 1).find((line) => line.startsWith('at '));
  const where = frame && /^at (\S+) \((?:.*\/)?(server\/[^)]+)\)$/.exec(frame);
  return `${lines[index]}${where ? `, in ${where[1]}, ${where[2]}` : ''}`.slice(0, 300);
}

const replayCommand = (seed: number, operation: string, path?: string | null) => `npm run fuzz -- --seed ${seed} --op ${operation}${path ? ` --path ${path}` : ''}`;

export async function runContractFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const target = await startFuzzTarget();
  const checker = contractChecker();
  try {
    return await fuzz(target, checker, options, log, started);
  } finally {
    checker.close();
    await target.close();
  }
}

async function fuzz(target: FuzzTarget, checker: ContractChecker, options: FuzzOptions, log: (line: string) => void, started: number): Promise<FuzzReport> {
  const document = (await (await fetch(`${target.url}/openapi.json`)).json()) as Parameters<typeof operationsOf>[0];
  const judge = new RequestJudge(document);
  const all = operationsOf(document);
  const unknown = (options.operations ?? []).filter((id) => !all.some((operation) => operation.id === id));
  if (unknown.length > 0) throw new Error(`no such operation in the document: ${unknown.join(', ')} (there are ${all.map((operation) => operation.id).join(', ')})`);
  const operations = options.operations?.length ? all.filter((operation) => options.operations!.includes(operation.id)) : all;
  const findings: Finding[] = [];
  const stats: Record<string, OperationStats> = {};
  let crashes = 0;
  const heapBeforeBytes = await target.heapUsedBytes();

  for (const operation of operations) {
    const opStats: OperationStats = (stats[operation.id] = { requests: 0, valid: 0, statuses: {}, slowestMs: 0, slowest: '' });
    let crashed = false;
    /** The kinds of problem already reported for this operation: the next pass looks for another. */
    const known = new Set<string>();
    /** The kinds of request that killed the server (`body: arrays nested N deep`): the next passes send none, rather than kill it again. */
    const deadly = new Set<string>();
    const family = (request: FuzzRequest) => request.variant.replace(/\d+/g, 'N').replace(/ at .*$/, '');

    async function exchange(op: Operation, request: FuzzRequest): Promise<Problem[]> {
      const wire = await target.materialize(op, request);
      const described = describeRequest(request, wire);
      const refusals = judge.requestViolations(op, wire, document);
      opStats.requests++;
      if (refusals.length === 0) opStats.valid++;
      let reply: WireReply;
      try {
        reply = await target.send(wire);
      } catch (error) {
        if (await target.alive()) {
          // A server may answer a body past its limit and close the connection before the client has written it all (the
          // apps API does, docs/apps-api.md): the client then sees EPIPE or a reset, not the reply. Anything else is a finding.
          const cutOff = wire.body !== undefined && wire.body.length > CUT_OFF_BODY_BYTES && /EPIPE|ECONNRESET|socket hang up/.test((error as Error).message);
          opStats.statuses.closed = (opStats.statuses.closed ?? 0) + 1;
          return cutOff ? [] : [{ kind: 'no reply', text: `no reply (${(error as Error).message}), though the server is up: ${described}` }];
        }
        crashed = true;
        crashes++;
        deadly.add(family(request));
        log(`${op.id}: the server died (${(error as Error).message}); starting it again`);
        const why = lastError(target.output());
        await target.restart();
        return [{ kind: 'the server died', text: `the server died (${(error as Error).message}${why ? `; it said: ${why}` : ''}) on ${described}` }];
      }
      opStats.statuses[reply.status] = (opStats.statuses[reply.status] ?? 0) + 1;
      if (reply.ms > opStats.slowestMs) Object.assign(opStats, { slowestMs: Math.round(reply.ms), slowest: described.slice(0, 200) });
      const problems: Problem[] = [];
      if (reply.status >= 500) problems.push({ kind: `${reply.status} ${errorCodeOf(reply.body) ?? ''}`, text: `${reply.status} (${reply.body.slice(0, 200)}) for ${described}` });
      const json = reply.contentType?.includes('json') ? reply.body : undefined;
      const violations = await checker.check({ method: wire.method, url: `${target.url}${wire.path}`, status: reply.status, contentType: reply.contentType ?? null, body: json }, { method: op.method, template: op.template });
      problems.push(...violations.map((violation) => ({ kind: violationKind(violation), text: `${violation} for ${described}` })));
      if (reply.status >= 200 && reply.status < 300) {
        target.learn(op, wire, reply);
        if (refusals.length > 0) problems.push({ kind: `accepted: ${refusalKind(refusals[0]!)}`, text: `accepted (${reply.status}) a request the document does not allow (${refusals.join('; ')}): ${described}` });
      }
      return problems.filter((problem) => !known.has(problem.kind));
    }

    const property = fc.asyncProperty(requestArbitrary(operation, judge.root, target.knowledge), async (request) => {
      // Shrinking a crash would start the server again for every smaller try: the crashing request is reported as it was.
      if (crashed || deadly.has(family(request))) return;
      const problems = await exchange(operation, request);
      if (problems.length > 0) throw new FuzzFailure(problems);
    });

    const opStarted = performance.now();
    for (let pass = 0; pass < MAX_FINDINGS_PER_OPERATION; pass++) {
      crashed = false;
      const result = await fc.check(property, { seed: options.seed, numRuns: options.runs, ...(options.path && pass === 0 ? { path: options.path } : {}) });
      if (!result.failed) break;
      const failure = result.errorInstance;
      const problems = failure instanceof FuzzFailure ? failure.problems : [{ kind: String(failure), text: String(failure) }];
      for (const problem of problems) known.add(problem.kind);
      findings.push({ operation: operation.id, problem: problems.map((problem) => problem.text).join('\n'), replay: replayCommand(options.seed, operation.id, pass === 0 ? result.counterexamplePath : undefined) });
    }
    log(`${operation.id}: ${opStats.requests} requests (${opStats.valid} valid) in ${Math.round(performance.now() - opStarted)} ms, statuses ${JSON.stringify(opStats.statuses)}, slowest ${opStats.slowestMs} ms${known.size ? ` FAILED (${[...known].join(', ')})` : ''}`);
  }

  const aliveAtEnd = await target.alive();
  const heapAfterBytes = aliveAtEnd ? await target.heapUsedBytes() : Number.NaN;
  return { seed: options.seed, runs: options.runs, findings, operations: stats, crashes, aliveAtEnd, heapBeforeBytes, heapAfterBytes, durationMs: Math.round(performance.now() - started) };
}

/** The report's failures as a reader wants them: each operation's problem, and the command that replays it. */
export function formatFindings(report: FuzzReport): string {
  if (report.findings.length === 0) return `contract fuzz: seed ${report.seed}, ${report.runs} runs an operation: no finding`;
  return [
    `contract fuzz: seed ${report.seed}, ${report.runs} runs an operation: ${report.findings.length} finding(s) in ${new Set(report.findings.map((finding) => finding.operation)).size} operation(s)${report.crashes ? `, the server died ${report.crashes} time(s)` : ''}`,
    ...report.findings.map((finding) => `- ${finding.operation}: ${finding.problem}\n  replay: ${finding.replay}`),
  ].join('\n');
}
