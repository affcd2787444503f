import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A running node:http server on 127.0.0.1 with a random port. */
export interface Running {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

export async function listen(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Running> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A promise with its resolve exposed. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; settled: () => boolean } {
  let resolve!: (value: T) => void;
  let done = false;
  const promise = new Promise<T>((r) => {
    resolve = (value) => {
      done = true;
      r(value);
    };
  });
  return { promise, resolve, settled: () => done };
}
