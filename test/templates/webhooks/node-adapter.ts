/**
 * Test-only adapter: serves a `(Request) => Promise<Response>` handler on a real node:http
 * server. The request body is exposed as a web ReadableStream that counts the bytes the handler
 * actually pulled, so tests can prove an oversized body was not read to the end.
 */
import { createServer } from "node:http";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface TestServer {
  readonly url: string;
  /** Bytes the handler pulled from the request body, per request, in arrival order. */
  readonly bytesPulled: number[];
  close(): Promise<void>;
}

function toWebRequest(req: IncomingMessage, base: string, pulled: { n: number }): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const method = req.method ?? "GET";
  let body: ReadableStream<Uint8Array> | undefined;
  if (method !== "GET" && method !== "HEAD") {
    const iterator = req[Symbol.asyncIterator]();
    body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await iterator.next();
        if (done) {
          controller.close();
          return;
        }
        const chunk = new Uint8Array(value as Buffer);
        pulled.n += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        // Drain instead of destroying the socket, so the response can still be written.
        req.resume();
      },
    }, { highWaterMark: 0 }); // pull only when the handler reads
  }
  return new Request(new URL(req.url ?? "/", base), {
    method,
    headers,
    body,
    duplex: "half",
  } as RequestInit);
}

async function writeWebResponse(res: ServerResponse, response: Response): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  const body = Buffer.from(await response.arrayBuffer());
  res.writeHead(response.status, { ...headers, "content-length": String(body.byteLength) });
  res.end(body);
}

export async function serve(handler: (request: Request) => Promise<Response>): Promise<TestServer> {
  const bytesPulled: number[] = [];
  let base = "";
  const server: Server = createServer((req, res) => {
    const pulled = { n: 0 };
    const index = bytesPulled.push(0) - 1;
    handler(toWebRequest(req, base, pulled))
      .then(async (response) => {
        bytesPulled[index] = pulled.n;
        // Whatever the handler left unread is drained so keep-alive clients see the response.
        if (!req.readableEnded) req.resume();
        await writeWebResponse(res, response);
      })
      .catch((error: unknown) => {
        res.writeHead(599);
        res.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/webhooks`,
    bytesPulled,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
