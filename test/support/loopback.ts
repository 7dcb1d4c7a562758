import { once } from 'node:events';
import type * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Listening {
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Closes the server and every connection it holds, keep-alive ones too. */
  close(): Promise<void>;
}

/** Starts a test server on a free loopback port. */
export async function listenOnLoopback(server: http.Server): Promise<Listening> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
