/** Not a test helper: the fleet (testing/fleet/fleet.ts) tells PostgreSQL, nginx and the instances their ports. */
import { createServer } from 'node:net';

/** A loopback port nothing listens on now, for a process that must be told its port (PostgreSQL, nginx). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
