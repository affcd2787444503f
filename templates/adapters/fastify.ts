/**
 * Fastify 5: `app.register(toFastify(router), { prefix: "/api" })`. The plugin declares one catch-all route in its
 * own encapsulated context and answers the spec's routes exactly as `toNodeListener` does; a request none of them
 * matches goes to the app's not-found handling (`reply.callNotFound()`). Fastify's own routes win over the catch-all
 * (https://fastify.dev/docs/latest/Reference/Routes/), and its hooks, error handler and other routes are left as they
 * are.
 *
 * The router reads and validates bodies itself (its limits, its 413 and 415 in the spec's shape), so inside the
 * plugin's context, and only there, Fastify's content-type parsers are replaced by one that passes every body
 * through unread (https://fastify.dev/docs/latest/Reference/ContentTypeParser/).
 *
 * Fastify is not imported: the types below are the part of it the plugin uses, which Fastify's own types satisfy.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { serveIncomingOf, type Answer } from "../server/incoming.js";
import { NodeIncoming, settle } from "../server/node.js";
import type { Router } from "../server/types.js";

/** The part of a Fastify request the plugin reads. */
export interface FastifyRequestLike {
  raw: IncomingMessage;
}

/** The part of a Fastify reply the plugin uses. */
export interface FastifyReplyLike {
  raw: ServerResponse;
  code(statusCode: number): unknown;
  header(name: string, value: unknown): unknown;
  send(payload?: unknown): unknown;
  callNotFound(): void;
}

/** The part of a Fastify instance (the plugin's encapsulated context) the plugin uses. */
export interface FastifyInstanceLike {
  /** The prefix the plugin was registered with (`""` without one). */
  prefix: string;
  removeAllContentTypeParsers(): void;
  addContentTypeParser(contentType: string, parser: (request: FastifyRequestLike, payload: unknown, done: (error: null, body?: undefined) => void) => void): void;
  all(path: string, handler: (request: FastifyRequestLike, reply: FastifyReplyLike) => void): void;
}

/** A Fastify plugin, as `app.register` takes it. */
export type FastifyPlugin = (fastify: FastifyInstanceLike, options: object) => Promise<void>;

/** Serves the router's routes as a Fastify plugin: `app.register(toFastify(router), { prefix })`. */
export function toFastify(router: Router): FastifyPlugin {
  const serve = serveIncomingOf(router);
  if (!serve) throw new TypeError("toFastify: pass the router createRouter returns");
  return async (fastify) => {
    // The body stays on the socket for the router (this context only).
    fastify.removeAllContentTypeParsers();
    fastify.addContentTypeParser("*", (_request, _payload, done) => done(null));
    const prefix = fastify.prefix;
    const handler = (request: FastifyRequestLike, reply: FastifyReplyLike): void => {
      const incoming = new NodeIncoming(request.raw, reply.raw, { prefix });
      const answer = incoming.mounted ? serve(incoming, "pass") : undefined;
      if (answer === undefined) reply.callNotFound();
      else settle(answer, (settled) => send(settled, incoming, reply), (error) => reply.send(error));
    };
    fastify.all("/", handler);
    fastify.all("/*", handler);
  };
}

/** Sends the router's answer through Fastify (its hooks see it, its headers set earlier stay). */
function send(answer: Answer, incoming: NodeIncoming, reply: FastifyReplyLike): void {
  if (answer instanceof Response) {
    reply.send(answer);
    return;
  }
  reply.code(answer.status);
  for (const [name, value] of Object.entries(answer.headers)) reply.header(name, value);
  // An unread request body (413, 415, 401, ...) would otherwise be drained by Node after the response: close instead.
  if (incoming.bodyUnread()) reply.header("connection", "close");
  const { body } = answer;
  // As bytes: Fastify sends those with the Content-Type as it is (a JSON string would get `; charset=utf-8` added).
  reply.send(body === null ? undefined : typeof body === "string" ? Buffer.from(body) : body);
}
