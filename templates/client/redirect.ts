/**
 * Redirects, followed by the client itself (`redirect: "manual"`) so that credentials never travel to another
 * origin: across origins every header of the request is dropped but `Accept` (credentials, API keys, the caller's
 * `headers` such as a `PRIVATE-TOKEN`, header parameters), as browsers drop `Authorization`; fetch adds its own
 * again. A body is never sent to another origin.
 */

/** Statuses that carry a `Location` to follow. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Most redirects followed for one attempt, as the fetch standard allows. */
export const MAX_REDIRECTS = 20;

/** Headers that describe a body, dropped when a redirect turns the request into a GET. */
const BODY_HEADERS = ["type", "length", "encoding", "language", "location"].map((name) => `content-${name}`);

/** The parts of a request a redirect may change. */
export interface Hop {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

export function isRedirect(response: Response): boolean {
  return REDIRECT_STATUSES.has(response.status) && response.headers.has("location");
}

/**
 * The request that follows `response` (a redirect of `hop`), or `undefined` when it must not be followed, in which
 * case the redirect itself is the answer:
 * - a 303 (and a 301/302 answering a POST) becomes a GET without body, as fetch does;
 * - a 307/308 repeats method and body, unless the body is a stream (sent once only) or the target is another origin;
 * - across origins, every header but `Accept` is removed, and they stay removed on later hops.
 * Only http(s) targets are followed.
 */
export function nextHop(response: Response, hop: Hop): Hop | undefined {
  let target: URL;
  try {
    target = new URL(response.headers.get("location")!, hop.url);
  } catch {
    return undefined;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return undefined;
  const crossOrigin = target.origin !== new URL(hop.url).origin;
  // (Which headers are a secret is the caller's knowledge, not the client's: none goes to another origin.)
  const headers = new Headers(crossOrigin ? [...hop.headers].filter(([name]) => name === "accept") : hop.headers);
  let method = hop.method;
  let body = hop.body;
  const status = response.status;
  if ((status === 303 && method !== "GET" && method !== "HEAD") || ((status === 301 || status === 302) && method === "POST")) {
    method = "GET";
    body = undefined;
    for (const name of BODY_HEADERS) headers.delete(name);
  } else if (body !== undefined && body !== null && (crossOrigin || body instanceof ReadableStream)) {
    return undefined;
  }
  // (A fragment of the redirect target is not sent.)
  target.hash = "";
  return { url: target.href, method, headers, body };
}
