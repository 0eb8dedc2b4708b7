import { type RequestListener, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Stops it, cutting connections still open (a test's server must not keep the run alive). */
  close(): Promise<void>;
}

/** Serves `handler` (an Express app, say) on 127.0.0.1, on any free port. */
export async function listen(handler: RequestListener): Promise<Listening> {
  const http = createServer(handler);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: () => {
      http.closeAllConnections();
      return new Promise((resolve) => http.close(() => resolve()));
    },
  };
}
