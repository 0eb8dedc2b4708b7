/**
 * A TCP proxy in front of a PostgreSQL server that counts the round trips its
 * clients make, read off the wire protocol: a simple query ('Q') or a Sync
 * ('S', which ends an extended query: Parse, Bind, Execute, then Sync) is one
 * round trip, whatever library sent it. Each is kept with its SQL text, so a
 * test can print what an operation sent (docs/operations.md#round-trips-per-operation).
 */
import { createConnection, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RoundTripCounter {
  /** The server's URL with the proxy's host and port: give it to the store instead. */
  url: string;
  /** The SQL of each round trip since the last `take` (or the start), in the order sent; the list starts over. */
  take(): string[];
  close(): Promise<void>;
}

/** The protocol's untyped messages before the session starts: an SSL or GSS encryption request, then the startup packet. */
const ENCRYPTION_REQUESTS = new Set([80877103, 80877104]);

/** Reads the client's side of one connection: typed messages (a type byte, then an int32 length counting itself) after the startup packet. */
function clientReader(onRoundTrip: (sql: string) => void): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let started = false;
  let lastParsed = '';
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      if (!started) {
        if (pending.length < 8) return;
        const length = pending.readInt32BE(0);
        if (pending.length < length) return;
        started = !ENCRYPTION_REQUESTS.has(pending.readInt32BE(4));
        pending = pending.subarray(length);
        continue;
      }
      if (pending.length < 5) return;
      const length = pending.readInt32BE(1);
      if (pending.length < 1 + length) return;
      const type = String.fromCharCode(pending[0]!);
      const body = pending.subarray(5, 1 + length);
      if (type === 'Q') onRoundTrip(cString(body, 0));
      else if (type === 'P') lastParsed = cString(body, body.indexOf(0) + 1);
      else if (type === 'S') onRoundTrip(lastParsed);
      pending = pending.subarray(1 + length);
    }
  };
}

const cString = (buffer: Buffer, start: number): string => buffer.toString('utf8', start, buffer.indexOf(0, start));

/** Listens on 127.0.0.1 (a free port) and forwards every connection to the server `serverUrl` names. */
export async function countRoundTrips(serverUrl: string): Promise<RoundTripCounter> {
  const target = new URL(serverUrl);
  let sent: string[] = [];
  const sockets = new Set<Socket>();
  const proxy = createServer((client) => {
    const server = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => (socket === client ? server : client).destroy());
    }
    const read = clientReader((sql) => sent.push(sql));
    client.on('data', (chunk: Buffer) => {
      read(chunk);
      server.write(chunk);
    });
    server.pipe(client);
    client.on('end', () => server.end());
    server.on('end', () => client.end());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = new URL(serverUrl);
  url.hostname = '127.0.0.1';
  url.port = String((proxy.address() as AddressInfo).port);
  return {
    url: url.toString(),
    take() {
      const taken = sent;
      sent = [];
      return taken;
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => proxy.close(() => resolve()));
    },
  };
}
