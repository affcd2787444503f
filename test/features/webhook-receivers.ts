import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "../templates/webhooks/node-adapter.js";

/** A receiver on a real node:http server on 127.0.0.1. */
export interface Receiver {
  url: string;
  close(): Promise<void>;
}

/** The generated node:http listener on a real server. */
export async function nodeReceiver(listener: (req: IncomingMessage, res: ServerResponse) => void): Promise<Receiver> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Both transports for one generated module and options: the node:http listener and the web handler behind node:http. */
export async function receivers(module: Record<string, any>, options: Record<string, unknown>): Promise<Record<"node" | "fetch", Receiver>> {
  return {
    node: await nodeReceiver(module.createWebhookNodeListener(options)),
    fetch: await serve(module.createWebhookHandler(options)),
  };
}

export const TRANSPORTS = ["node", "fetch"] as const;
