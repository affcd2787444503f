import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export type Reply = (req: Received, res: ServerResponse) => void | Promise<void>;

/** A real HTTP server on 127.0.0.1 that records every request and answers with the current `reply`. */
export class Recorder {
  readonly received: Received[] = [];
  reply: Reply = (_req, res) => json(res, 200, {});
  private server!: Server;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        const received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
        this.received.push(received);
        void Promise.resolve(this.reply(received, res)).catch((error) => {
          res.statusCode = 599;
          res.end(String(error));
        });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  last(): Received {
    const last = this.received[this.received.length - 1];
    if (!last) throw new Error("no request received");
    return last;
  }

  reset(reply: Reply): void {
    this.received.length = 0;
    this.reply = reply;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}
