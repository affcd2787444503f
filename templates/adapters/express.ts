/**
 * Express 4 and 5: `app.use(toExpress(router))`, or under a path, `app.use("/api", toExpress(router))` (the router's
 * `basePath` then applies below it). The spec's routes are answered exactly as `toNodeListener` answers them; any
 * other request goes on to the next middleware, untouched.
 *
 * Express is not imported: the types below are the part of its request and response the adapter reads, which
 * Express's own types satisfy (https://expressjs.com/en/5x/api.html#req).
 *
 * A body parser mounted before the adapter (`app.use(express.json())`) has read the body from the socket already;
 * what it made of it (`req.body`) is turned back into the bytes it was parsed from and validated as they would
 * have been (see `bodyReadBefore`). The parser's own refusals (its size limit, malformed JSON) are its answers, not
 * the spec's: mount the adapter first for the spec's errors everywhere.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HttpError } from "../server/body.js";
import { serveIncomingOf } from "../server/incoming.js";
import { NodeIncoming, settle, writeAnswer, type ReadBody } from "../server/node.js";
import type { Router } from "../server/types.js";

/** What the adapter reads of an Express request: Node's request, and what Express and body parsers add to it. */
export interface ExpressRequest extends IncomingMessage {
  /** The request target as sent (Express rewrites `url` below the path a middleware is mounted at). */
  originalUrl?: string;
  /** The path the middleware is mounted at (`""` at the root). */
  baseUrl?: string;
  /** What a body parser made of the body. */
  body?: unknown;
  /** Set by body-parser (`express.json()`, `urlencoded`, `text`, `raw`) once it has read the body. */
  _body?: boolean;
}

/** Express's `next`: with an error, Express's error handling answers. */
export type ExpressNext = (error?: unknown) => void;

/** An Express middleware, as `app.use` takes it. */
export type ExpressMiddleware = (req: ExpressRequest, res: ServerResponse, next: ExpressNext) => void;

/** Serves the router's routes as an Express middleware; every other request goes to `next()`. */
export function toExpress(router: Router): ExpressMiddleware {
  const serve = serveIncomingOf(router);
  if (!serve) throw new TypeError("toExpress: pass the router createRouter returns");
  return (req, res, next) => {
    // A failure to write an answer before its head went out is Express's to answer; after, the connection is cut.
    const fail = (error: unknown) => (res.headersSent ? res.destroy() : next(error));
    let incoming: NodeIncoming;
    let answer: ReturnType<typeof serve>;
    try {
      incoming = new NodeIncoming(req, res, { target: req.originalUrl, prefix: req.baseUrl, body: bodyReadBefore(req) });
      answer = incoming.mounted ? serve(incoming, "pass") : undefined;
    } catch (error) {
      next(error);
      return;
    }
    if (answer === undefined) next();
    else settle(answer, (settled) => writeAnswer(settled, incoming, req, res, fail), fail);
  };
}

/**
 * The body as the client sent it, when a middleware before the adapter has read it; undefined when it is still on
 * the socket. Mapped back by the request's Content-Type, as body-parser chose its parser by it:
 *
 * - bytes (`express.raw()`): as they are;
 * - text (`express.text()`): UTF-8 (body-parser decoded it by its charset; the Content-Type then says UTF-8);
 * - an object under a JSON media type (`express.json()`): JSON;
 * - an object under `application/x-www-form-urlencoded` (`express.urlencoded()`): the form again, arrays as repeated
 *   fields and nested objects (the `extended` parser's `a[b]=1`) in brackets, which is what they were parsed from.
 *
 * Anything else (a multipart body a parser such as multer consumed, a body read by hand) cannot be read again: a
 * route that reads it fails (500, and `onError` is told how to fix it) rather than validate something it was not.
 */
function bodyReadBefore(req: ExpressRequest): ReadBody | undefined {
  const { headers } = req;
  const declared = headers["transfer-encoding"] !== undefined || (headers["content-length"] !== undefined && headers["content-length"] !== "0");
  if (!declared || !(req._body === true || req.readableEnded || req.readableDidRead)) return undefined;
  const body = req.body;
  const contentType = headers["content-type"] ?? "";
  const essence = contentType.split(";", 1)[0]!.trim().toLowerCase();
  if (body instanceof Uint8Array) return { bytes: () => body };
  if (typeof body === "string") {
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
    const utf8 = charset === undefined || /^utf-?8$/i.test(charset);
    return { bytes: () => encoder.encode(body), contentType: utf8 ? undefined : contentType.replace(/charset\s*=\s*"?[^";\s]+"?/i, "charset=utf-8") };
  }
  if (body !== null && typeof body === "object") {
    if (/^application\/(?:[\w.+-]+\+)?json$/.test(essence)) return { bytes: () => jsonBytes(body) };
    if (essence === "application/x-www-form-urlencoded") return { bytes: () => encoder.encode(formText(body)) };
  }
  const message =
    `toExpress: the body of ${req.method} ${req.originalUrl ?? req.url} (${essence || "no Content-Type"}) was read by a middleware before the router, which cannot validate what that middleware made of it; ` +
    "mount toExpress before it (app.use(toExpress(router)) first), or mount that middleware on other paths";
  return {
    bytes: () => {
      throw new Error(message);
    },
  };
}

const encoder = new TextEncoder();

function jsonBytes(value: object): Uint8Array {
  try {
    return encoder.encode(JSON.stringify(value));
  } catch {
    // Nested deeper than JSON.stringify's stack allows (the router would refuse it as too deep).
    throw new HttpError(400, "bad_request", "The request body is nested too deeply");
  }
}

/** `application/x-www-form-urlencoded` text of a parsed form: what body-parser's `urlencoded` parsed it from. */
function formText(form: object): string {
  const params = new URLSearchParams();
  const add = (name: string, value: unknown, depth: number): void => {
    if (depth > 64) throw new HttpError(400, "bad_request", "The request body is nested too deeply");
    if (Array.isArray(value)) for (const item of value) add(name, item, depth + 1);
    else if (value !== null && typeof value === "object") for (const [key, item] of Object.entries(value)) add(`${name}[${key}]`, item, depth + 1);
    else params.append(name, String(value));
  };
  for (const [name, value] of Object.entries(form)) add(name, value, 0);
  return params.toString();
}
