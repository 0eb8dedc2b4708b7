/**
 * `npm run bench` (after `npm run build`): every figure of docs/benchmarks.md
 * in one run, each side by side with its baseline in the same run. Prints the
 * table, writes scripts/bench/results.json, and replaces the generated part
 * of docs/benchmarks.md (between its bench markers), leaving the prose around
 * it as written.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { WALLET_FETCH_MS } from './browser';
import { repoRoot } from './children';
import { benchEcv2Open } from './ecv2-open';
import { benchPayLoad } from './pay-load';
import { payGoals } from './pay-goals';
import { tailRows } from './tail';
import { benchWebhookLatency } from './webhook-latency';
import { benchServerStart } from './server-start';
import { benchSessionList, type QueryTiming } from './session-list';
import { benchPaymentsExport } from './payments-export';
import { benchOverview, OVERVIEW_BENCH_OPTIONS, overviewRows } from './overview';
import { benchFleetThroughput, FLEET_GOAL } from './fleet-throughput';
import { benchPackageLayers, packageLayerRows } from './front-end-packages';
import { benchQuoteCallback, quoteCallbackRows } from './quote-callback';
import { benchLighthouse } from './lighthouse';
import { lighthouseRows } from './lighthouse-goals';
import { round, verdict } from './stats';
import { benchSlow4gBuilt, slow4gRows } from './slow4g';
import { benchWidget } from './widget';

/** Published npm packages that decrypt Google Pay tokens, looked up with `npm view` when this bench was written. */
const DECRYPT_PACKAGES_CHECKED =
  'google-pay-decrypt, @ad-astra/google-pay-token-decryption, google-pay-token-decryption (not on npm); ' +
  '@basis-theory/google-pay-js 1.0.0 exists but is not installed here, and the bench installs nothing';

const started = Date.now();
const machine = {
  nproc: availableParallelism(),
  cpu: /model name\s*:\s*(.+)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? 'unknown',
  node: process.version,
  loadAverageAtStart: loadavg().map((n) => round(n)),
  date: new Date().toISOString(),
};

const log = (stage: string) => console.error(`[bench ${Math.round((Date.now() - started) / 1000)} s] ${stage}`);

const checkoutJs = join(repoRoot, 'dist/web/checkout.js');
if (!existsSync(checkoutJs)) throw new Error('dist/web/checkout.js is missing: run `npm run build` first (npm run bench does)');
{
  const widget = await benchWidget({ loads: 21, payments: 5, log: (stage) => log(`1-2/7 widget: ${stage}`) });
  const { browser } = widget;
  const { ours, total, floor } = widget.bundle;

  log('2. slow 4G: the bare element, the tag carrying the view, the plain tag');
  const slow4g = await benchSlow4gBuilt(15);

  log('3/7 ECv2 open');
  const ecv2 = benchEcv2Open();

  log('4/7 pay endpoint under load');
  const pay = await benchPayLoad({ serviceDelayMs: 20, rounds: 6, requestsPerRound: 750, connections: 32, fixedRateRequests: 2000, backend: 'compiled' });

  log('5/7 webhook delivery latency');
  const webhooks = await benchWebhookLatency({ payments: 200 });
  log('6/7 server start, compiled and through tsx');
  const start = await benchServerStart({ rounds: 7, loadPayments: 200 });
  log('7/7 throughput through nginx, 1 and 3 instances');
  const fleet = await benchFleetThroughput({ connections: 32, seconds: 10, rounds: 3 });
  log('9. payment list query, 10,000 sessions, SQLite and PostgreSQL');
  const sessionList = await benchSessionList({ sessions: 10_000, runs: 200, pageSize: 20 });
  log('14. the payments CSV export, 100,000 sessions, SQLite and PostgreSQL');
  const paymentsExport = await benchPaymentsExport(100_000);
  log('10. the front-end packages\' layers');
  const packageLayers = await benchPackageLayers();
  log("11. the sheet's callback latency, a quote endpoint session and a static options one");
  const quoteCallback = await benchQuoteCallback({ changes: 200 });
  log("12. the dashboard overview's query, 100,000 sessions, SQLite and PostgreSQL");
  const overview = await benchOverview(OVERVIEW_BENCH_OPTIONS);
  log('13. Lighthouse: the demo store, a one-widget page and the dashboard sign-in, mobile and desktop');
  const lighthouse = await benchLighthouse({ runs: 3, log: (stage) => log(`13. Lighthouse: ${stage}`) });

  const ratio = (a: number, b: number) => round(a / b);
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  const ms = (n: number) => `${n.toFixed(1)} ms`;
  const payGoal = payGoals(pay);
  type Row = [figure: string, ours: string, baseline: string, ratio: string, goal: string];
  const rows: Row[] = [
    ['1. Bundle (initial checkout.js), gzip', kb(ours.gzip), `floor ${kb(floor.gzip)}`, String(ratio(ours.gzip, floor.gzip)), `≤ 1.3x: ${verdict(ours.gzip / floor.gzip <= 1.3)}`],
    ['1. Bundle, brotli', kb(ours.brotli), `floor ${kb(floor.brotli)}`, String(ratio(ours.brotli, floor.brotli)), `≤ 1.3x: ${verdict(ours.brotli / floor.brotli <= 1.3)}`],
    ['1. Bundle, minified', kb(ours.minified), `floor ${kb(floor.minified)}`, String(ratio(ours.minified, floor.minified)), ''],
    ['1. Bundle, gzip, with every chunk one page may load later (one language)', kb(total.gzip), '', '', ''],
    [
      `2. Time to usable button (median of ${browser.loads} loads each)`,
      ms(browser.ours.usableMs),
      `bare element ${ms(browser.bare.usableMs)}`,
      String(ratio(browser.ours.usableMs, browser.bare.usableMs)),
      `≤ 1.1x: ${verdict(browser.ours.usableMs / browser.bare.usableMs <= 1.1)}`,
    ],
    [
      '2. … script arrived / session view arrived',
      // The page carries the session's view: the widget asks for none before its button.
      `${ms(browser.ours.scriptArrivedMs)} / ${browser.ours.sessionArrivedMs == null ? 'none before the button' : ms(browser.ours.sessionArrivedMs)}`,
      `${ms(browser.bare.scriptArrivedMs)} / none`,
      '',
      '',
    ],
    [
      `2. … with the wallet's script fetched (${WALLET_FETCH_MS} ms), as pay.js is in production`,
      ms(browser.walletFetched.ours.usableMs),
      `bare element ${ms(browser.walletFetched.bare.usableMs)}`,
      String(ratio(browser.walletFetched.ours.usableMs, browser.walletFetched.bare.usableMs)),
      '',
    ],
    ...slow4gRows(slow4g),
    [
      `3. Pay throughput (${pay.options.connections} connections, median of ${pay.options.rounds} rounds)`,
      `${Math.round(pay.ours.throughputPerSecond)}/s`,
      `bare handler ${Math.round(pay.bare.throughputPerSecond)}/s`,
      String(ratio(pay.ours.throughputPerSecond, pay.bare.throughputPerSecond)),
      `≥ 0.5x: ${verdict(pay.ours.throughputPerSecond / pay.bare.throughputPerSecond >= 0.5)}`,
    ],
    ['3. Pay latency p50 / p99 (same runs)', `${ms(pay.ours.p50Ms)} / ${ms(pay.ours.p99Ms)}`, `${ms(pay.bare.p50Ms)} / ${ms(pay.bare.p99Ms)}`, '', ''],
    [
      `3. Added latency p50 / p99 at 200/s (end-to-end − ${pay.options.serviceDelayMs} ms service delay)`,
      `${ms(pay.ours.addedAt200.p50Ms)} / ${ms(pay.ours.addedAt200.p99Ms)}`,
      `${ms(pay.bare.addedAt200.p50Ms)} / ${ms(pay.bare.addedAt200.p99Ms)}`,
      String(ratio(pay.ours.addedAt200.p99Ms, pay.bare.addedAt200.p99Ms)),
      '',
    ],
    ['3. … p99 at 200/s added over the bare handler (ours − its p99)', ms(payGoal.p99OverBare.ms), `bare handler ${ms(pay.bare.addedAt200.p99Ms)}`, '', payGoal.p99OverBare.goal],
    ['3. … p99 at 200/s added over the durable floor (ours − its p99)', ms(payGoal.p99OverDurable.ms), `durable floor ${ms(pay.durable.addedAt200.p99Ms)}`, '', ''],
    ...tailRows(pay),
    ['3. Server CPU per pay (service CPU apart)', ms(pay.ours.cpuMsPerRequest), `bare handler ${ms(pay.bare.cpuMsPerRequest)}`, String(payGoal.cpuOverBare.ratio), payGoal.cpuOverBare.goal],
    [
      '3. … against the durable floor (the bare handler committing our pay\'s two transactions)',
      ms(pay.ours.cpuMsPerRequest),
      `durable floor ${ms(pay.durable.cpuMsPerRequest)}`,
      String(payGoal.cpuOverDurable.ratio),
      payGoal.cpuOverDurable.goal,
    ],
    [
      `3. … ours ÷ the durable floor round by round (${pay.options.rounds} rounds, each pair from the same round): lowest / highest`,
      `${payGoal.cpuOverDurable.rounds.lowest}x / ${payGoal.cpuOverDurable.rounds.highest}x`,
      '',
      '',
      '',
    ],
    ['3. Service CPU per pay', ms(pay.ours.serviceCpuMsPerRequest), ms(pay.bare.serviceCpuMsPerRequest), '', ''],
    ['3. Peak memory (VmHWM)', mb(pay.ours.peakRssBytes), `bare handler ${mb(pay.bare.peakRssBytes)}; durable floor ${mb(pay.durable.peakRssBytes)}`, String(ratio(pay.ours.peakRssBytes, pay.bare.peakRssBytes)), ''],
    [
      '4. ECv2 open (verify + decrypt), one core',
      `${Math.round(ecv2.open).toLocaleString('en')}/s`,
      `primitive bound ${Math.round(ecv2.bound).toLocaleString('en')}/s`,
      String(round(ecv2.ratio)),
      `≥ 0.8x: ${verdict(ecv2.ratio >= 0.8)}`,
    ],
    ['4. ECv2 open, npm package', 'n/a', DECRYPT_PACKAGES_CHECKED, '', ''],
    [
      '5. Long tasks during load (count / blocking)',
      `${browser.ours.longTaskCount} / ${ms(browser.ours.blockingMs)}`,
      `${browser.bare.longTaskCount} / ${ms(browser.bare.blockingMs)}`,
      '',
      '',
    ],
    [`5. Long tasks during payment (median of ${browser.payment.runs})`, `${browser.payment.longTaskCount} / ${ms(browser.payment.blockingMs)}`, 'n/a (no backend)', '', ''],
    ['5. JS heap after mount', mb(browser.ours.heapBytes), mb(browser.bare.heapBytes), String(ratio(browser.ours.heapBytes, browser.bare.heapBytes)), ''],
    [
      `6. Webhook delivery latency p50 / p99 (state change to receiver, ${webhooks.payments} payments)`,
      `${ms(webhooks.p50Ms)} / ${ms(webhooks.p99Ms)}`,
      'woken, no poll',
      '',
      '',
    ],
    [
      `7. Server start, spawn to /readyz 200 (median of ${start.options.rounds})`,
      `compiled ${ms(start.compiled.startMs)}`,
      `tsx ${ms(start.tsx.startMs)}`,
      String(ratio(start.compiled.startMs, start.tsx.startMs)),
      '',
    ],
    ['7. Server RSS after start', `compiled ${mb(start.compiled.rssAfterStartBytes)}`, `tsx ${mb(start.tsx.rssAfterStartBytes)}`, String(ratio(start.compiled.rssAfterStartBytes, start.tsx.rssAfterStartBytes)), ''],
    [
      `7. Server RSS after ${start.options.loadPayments} payments`,
      `compiled ${mb(start.compiled.rssAfterLoadBytes)}`,
      `tsx ${mb(start.tsx.rssAfterLoadBytes)}`,
      String(ratio(start.compiled.rssAfterLoadBytes, start.tsx.rssAfterLoadBytes)),
      '',
    ],
    [
      `8. Session creation through nginx, PostgreSQL (${fleet.options.connections} connections, median of ${fleet.options.rounds} × ${fleet.options.seconds} s; ${fleet.failures} not 201)`,
      `3 instances ${Math.round(fleet.three)}/s`,
      `1 instance ${Math.round(fleet.one)}/s`,
      String(round(fleet.ratio)),
      `≥ ${FLEET_GOAL}x (coordination costs nothing): ${verdict(fleet.ratio >= FLEET_GOAL)}`,
    ],
    ...(['sqlite', 'postgres'] as const).map((engine): Row => {
      const timings = sessionList[engine];
      const p = (timing: QueryTiming) => `${ms(timing.p50Ms)} / ${ms(timing.p99Ms)}`;
      const title = `9. Payment list (dashboard, GET /api/sessions), ${sessionList.options.sessions.toLocaleString('en')} sessions, ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: page ${sessionList.options.pageSize} p50 / p99`;
      if (!timings) return [title, 'not run: no PostgreSQL binaries', '', '', ''];
      const filters = `status ${p(timings.byStatus)}; reference ${p(timings.byReference)}; a week ${p(timings.byDateRange)}`;
      return [title, `after the 9,000th ${p(timings.deepPage)}; ${filters}`, `first page ${p(timings.firstPage)}`, String(ratio(timings.deepPage.p50Ms, timings.firstPage.p50Ms)), ''];
    }),
    ...(['sqlite', 'postgres'] as const).map((engine): Row => {
      const figure = paymentsExport[engine];
      const title = `14. Payments CSV export (dashboard), ${paymentsExport.sessions.toLocaleString('en')} sessions, ${engine === 'sqlite' ? 'SQLite' : 'PostgreSQL'}: time; heap growth at its peak`;
      if (!figure) return [title, 'not run: no PostgreSQL binaries', '', '', ''];
      const mib = (n: number) => `${n.toFixed(1)} MiB`;
      return [title, `${(figure.seconds).toFixed(1)} s; ${mib(figure.peakHeapGrowthMiB)}`, `one query: ${mib(figure.oneQueryHeapGrowthMiB)}`, String(ratio(figure.peakHeapGrowthMiB, figure.oneQueryHeapGrowthMiB)), 'streamed: flat heap'];
    }),
    ...packageLayerRows(packageLayers),
    ...quoteCallbackRows(quoteCallback),
    ...overviewRows(overview),
    ...lighthouseRows(lighthouse),
  ];

  const escape = (cell: string) => cell.replace(/\|/g, '\\|');
  const table = [
    '| Figure | Ours | Baseline | Ratio | Goal |',
    '|---|---|---|---|---|',
    ...rows.map((row) => `| ${row.map(escape).join(' | ')} |`),
  ].join('\n');
  const seconds = Math.round((Date.now() - started) / 1000);
  const header =
    `Run ${machine.date} on ${machine.nproc} cores (${machine.cpu}), Node ${machine.node}; ` +
    `load average at start ${machine.loadAverageAtStart.join(' ')}; the run took ${seconds} s.`;
  console.log(`\n${header}\n\n${table}\n`);

  const results = { machine, seconds, bundle: widget.bundle, browser, slow4g, pay, ecv2, webhooks, start, fleet, sessionList, paymentsExport, packageLayers, quoteCallback, overview, lighthouse, decryptPackagesChecked: DECRYPT_PACKAGES_CHECKED };
  writeFileSync(join(repoRoot, 'scripts/bench/results.json'), `${JSON.stringify(results, null, 2)}\n`);

  const docPath = join(repoRoot, 'docs/benchmarks.md');
  const BEGIN = '<!-- bench:begin (written by npm run bench) -->';
  const END = '<!-- bench:end -->';
  const generated = `${BEGIN}\n${header}\n\n${table}\n${END}`;
  const doc = existsSync(docPath) ? readFileSync(docPath, 'utf8') : `# Benchmarks\n\n${BEGIN}\n${END}\n`;
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${docPath} lacks its bench markers`);
  writeFileSync(docPath, doc.slice(0, begin) + generated + doc.slice(end + END.length));
  log(`done: table in docs/benchmarks.md, every figure in scripts/bench/results.json`);
}
