import type { Server } from "../../../src/ir/model.js";

/**
 * Where the round trip sends each operation: every server of the spec is pointed at the recording hop on 127.0.0.1,
 * keeping its own path (where the router serves its operations), whatever OpenAPI allows its URL to be:
 *
 * - a fixed URL, absolute or relative (`/api/v31`, relative to the document), or with an empty host (DigitalOcean's
 *   presigned-upload server `https://`), is replaced whole through the client option the generator gives it
 *   (`baseUrl`, …), as a user points a client at a proxy;
 * - a URL with `{variables}` (DigitalOcean's `https://{agent_url}`) is left to the client, which fills in the
 *   variables' defaults itself; a second client, whose `fetch` sends each request to 127.0.0.1 with the same path and
 *   query, carries those operations.
 */

/** The server's URL with every `{variable}` replaced by its default (a variable the server does not declare by ""). */
export function withDefaults(server: Pick<Server, "url" | "variables">): string {
  return server.url.replace(/\{([^{}]+)\}/g, (_, name: string) => server.variables.find((v) => v.name === name)?.default ?? "");
}

/**
 * The path of a server URL (RFC 3986: what follows the scheme and authority, before any query or fragment), without
 * a trailing slash: "" for `https://api.example.com/` and `https://`, `/v1` for `https://h/v1/` and for the relative
 * `/v1` or `v1` (read against the root, as a document served at `/` would have it). Variables take their defaults.
 */
export function serverPath(server: Pick<Server, "url" | "variables">): string {
  const url = withDefaults(server);
  // (Not `new URL(url)`: `https://` has an empty host, which the WHATWG parser refuses and RFC 3986 allows.)
  const rest = url.replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, "");
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(rest)) throw new Error(`server URL ${JSON.stringify(server.url)} has no authority: the round trip cannot say its path`);
  const path = rest.replace(/[?#].*$/s, "");
  return new URL(path === "" ? "/" : path, "http://relative.invalid/").pathname.replace(/\/+$/, "");
}

/** Whether the server's URL with its defaults is relative (no scheme): a client cannot send to it without a base. */
export function isRelative(server: Pick<Server, "url" | "variables">): boolean {
  return !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(withDefaults(server));
}

/** The client options that point every fixed-URL server at `origin`, keeping its path (`baseUrl` when there are none). */
export function fixedServerOptions(servers: readonly Server[], origin: string): Record<string, string> {
  const options: Record<string, string> = {};
  if (servers.length === 0) options.baseUrl = origin;
  for (const server of servers) if (server.urlOption) options[server.urlOption] = origin + serverPath(server);
  return options;
}

/**
 * A `fetch` for the client of servers with variables: the request the client built (from the variables' defaults)
 * goes to `origin` instead, with the same method, path, query, headers and body.
 */
export function fetchVia(origin: string): (request: Request, init?: RequestInit) => Promise<Response> {
  return async (request, init) => {
    const url = new URL(request.url);
    const body = request.body === null ? undefined : await request.arrayBuffer();
    return globalThis.fetch(origin + url.pathname + url.search, { method: request.method, headers: request.headers, body, redirect: "manual", signal: init?.signal ?? request.signal });
  };
}
