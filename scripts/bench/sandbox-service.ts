/**
 * The sandbox payment service in a process of its own, as a real service
 * would be, answering every charge after a fixed delay (a latency fault plan
 * at rate 1). Prints `READY {"url", "serviceSecretKey"}` once it listens.
 *   BENCH_DATA_DIR=... BENCH_SERVICE_DELAY_MS=20 node --import tsx scripts/bench/sandbox-service.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createSandboxService } from '../../sandbox';

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('BENCH_DATA_DIR is required');
const latencyMs = Number(process.env.BENCH_SERVICE_DELAY_MS ?? 20);

const sandbox = await createSandboxService({ dataDir, gatewayName: 'walletcheckout', faults: { rate: 1, kinds: ['latency'], latencyMs } });
const app = express();
app.disable('x-powered-by');
app.use('/sandbox', sandbox.router);
const server = createServer(app);
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const { port } = server.address() as AddressInfo;
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}/sandbox`, serviceSecretKey: sandbox.serviceSecretKey })}`);

process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => {
    sandbox.close().then(() => process.exit(0), () => process.exit(1));
  });
});
