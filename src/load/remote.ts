import { STATUS_CODES } from "node:http";
import { UserError } from "../errors.js";
import { packageVersion } from "../package/root.js";
import { isHttpUrl, originOf } from "../openapi/url.js";
import { ProxyConfigError, TunnelRefused, proxyFor, type Proxy, type ProxyEnvironment } from "./remote-proxy-env.js";

/**
 * Fetching one spec document over HTTP(S) with Node's own fetch (or through the environment's proxy: remote-proxy.ts), under the rules a vendor's document is read by:
 * only from the origins the config allows (redirects are followed only there), each with its own headers (whose
 * values come from environment variables), within a time limit and a size cap. Every failure is a FetchError (a
 * UserError: exit 2) naming the URL and what went wrong, and saying whether the network was out of reach (DNS,
 * refused, reset, timeout), in which case a cached copy may stand in.
 */

/** Per request (redirects and the whole body included). */
export const DEFAULT_FETCH_TIMEOUT_MS = 30_000;
/** As browsers allow about 20; vendors' documents need one or two (a moved path, a CDN). */
export const MAX_REDIRECTS = 10;

/** A request header whose value is read from an environment variable (never from argv or the config file). */
export interface HeaderSource {
  name: string;
  /** The environment variable holding the value. */
  variable: string;
  /** The value to send (read from `variable`); undefined when it is not set. A secret: never printed or written. */
  value: string | undefined;
  /** Where the header was asked for, for messages: `specforge.config.json#/fetch/headers/Authorization`. */
  from: string;
}

/** An origin documents may be fetched from, and the headers sent there (to no other origin). */
export interface OriginAccess {
  origin: string;
  headers: HeaderSource[];
}

export interface FetchPolicy {
  /** The origins documents may come from: redirects are followed, and `$ref`s read, only there. */
  origins: readonly OriginAccess[];
  /** Milliseconds for one request, redirects and body included. */
  timeoutMs: number;
  /** Largest document, in bytes (the decoded body). */
  maxBytes: number;
  /** HTTP(S) proxies of the environment (`https_proxy`, `no_proxy`, …); undefined: every request goes direct. */
  proxies?: ProxyEnvironment;
}

/** HTTP validators of a document version: sent back as If-None-Match / If-Modified-Since. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

export type FetchOutcome =
  | ({ status: 200; bytes: Buffer; finalUrl: string; contentType?: string } & Validators)
  /** The copy whose validators were sent is current. */
  | ({ status: 304; finalUrl: string } & Validators);

export class FetchError extends UserError {
  override name = "FetchError";
  /** True when the server could not be reached or did not answer in time: a cached copy may stand in. */
  readonly unreachable: boolean;

  constructor(message: string, options: { location: string; hint?: string; unreachable?: boolean; cause?: unknown }) {
    super(message, options);
    this.unreachable = options.unreachable ?? false;
  }
}

/** The locked version of a document is not in the cache (or the document is not locked at all): `check` needs it. */
export class LockedCopyMissing extends UserError {
  override name = "LockedCopyMissing";
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const ACCEPT = "application/vnd.oai.openapi+json, application/vnd.oai.openapi, application/json;q=0.9, application/yaml;q=0.9, text/yaml;q=0.8, */*;q=0.5";

/** The access rules for a URL's origin, or undefined when documents may not be fetched from it. */
export function accessFor(policy: FetchPolicy, url: string): OriginAccess | undefined {
  if (!isHttpUrl(url)) return undefined;
  let origin: string;
  try {
    origin = originOf(url);
  } catch {
    return undefined;
  }
  return policy.origins.find((access) => access.origin === origin);
}

/**
 * GETs `url`, following redirects within the allowed origins; with `validators`, conditionally (a 304 says the copy
 * they describe is current). `signal` stops it early (watch mode ending); its reason is thrown as it is.
 */
export async function fetchDocument(url: string, policy: FetchPolicy, options: { validators?: Validators; signal?: AbortSignal } = {}): Promise<FetchOutcome> {
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const { validators } = options;
  const conditional = validators !== undefined && (validators.etag !== undefined || validators.lastModified !== undefined);
  let current = url;
  /** `https://a/x: redirected to https://b/y, which …`: a failure after redirects names where it happened. */
  const at = () => (current === url ? "" : `redirected to ${shown(current)}, which `);
  const fail = (message: string, more: { hint?: string; unreachable?: boolean; cause?: unknown } = {}): never => {
    throw new FetchError(`${at()}${message}`, { location: url, ...more });
  };

  for (let redirects = 0; ; redirects++) {
    const access = accessFor(policy, current);
    if (access === undefined) {
      // Redirects are checked before they are followed: only a document asked for directly gets here (a lock that
      // names an origin the config no longer lists).
      throw new FetchError(`documents are not fetched from ${isHttpUrl(current) ? originOf(current) : "there"}: it is neither the spec's origin nor in \`fetch.origins\``, { location: url });
    }
    const headers = new Headers({ accept: ACCEPT, "user-agent": `specforge/${packageVersion()}` });
    for (const header of access.headers) {
      if (header.value === undefined) {
        throw new FetchError(`the environment variable ${header.variable} is not set: it holds the ${header.name} header for ${access.origin}`, {
          location: header.from,
          hint: `set it (in CI, from a secret) to fetch ${url}`,
        });
      }
      try {
        headers.set(header.name, header.value);
      } catch {
        throw new FetchError(`the environment variable ${header.variable} does not hold a valid ${header.name} header value (a line break or another control character?)`, {
          location: header.from,
        });
      }
    }
    if (validators?.etag !== undefined) headers.set("if-none-match", validators.etag);
    if (validators?.lastModified !== undefined) headers.set("if-modified-since", validators.lastModified);

    let proxy: Proxy | undefined;
    try {
      proxy = proxyFor(current, policy.proxies);
    } catch (error) {
      if (!(error instanceof ProxyConfigError)) throw error;
      throw new FetchError(`cannot be fetched: ${error.message}`, { location: url, hint: `set ${error.variable} to http://host:port (with user:password@ if the proxy asks for credentials), or unset it` });
    }
    /** ` through the proxy http://proxy:3128`: every failure of a proxied request names the proxy (never its password). */
    const via = proxy ? ` through the proxy ${proxy.shown} (${proxy.variable})` : "";
    const send = async () => (proxy ? (await import("./remote-proxy.js")).fetchThroughProxy(current, proxy, headers, signal) : fetch(current, { headers, redirect: "manual", signal }));

    let response: Response;
    try {
      response = await send().catch((error: unknown) => {
        // A kept-alive connection the server has since closed (between two polls of watch mode, say) fails at once:
        // a GET may be sent again, once, on a new connection.
        if (STALE_CONNECTION.has(causeCode(error) ?? "") && !signal.aborted) return send();
        throw error;
      });
    } catch (error) {
      if (options.signal?.aborted) throw options.signal.reason;
      const refused = (error as { cause?: unknown })?.cause;
      if (proxy && refused instanceof TunnelRefused) return fail(...describeTunnelRefusal(refused, proxy, current));
      const [message, more] = describeNetworkFailure(error, deadline.aborted, policy.timeoutMs);
      return fail(proxy ? message.replace(/^cannot be fetched|^did not answer/, (start) => `${start}${via}`) : message, more);
    }
    if (proxy && response.status === 407) {
      await discard(response);
      return fail(...describeTunnelRefusal(new TunnelRefused(407, response.statusText), proxy, current));
    }

    if (REDIRECTS.has(response.status)) {
      await discard(response);
      const location = response.headers.get("location");
      if (location === null) fail(`answered ${statusLine(response.status)} without a Location`);
      let next: string;
      try {
        next = new URL(location!, current).href;
      } catch {
        return fail(`answered ${statusLine(response.status)} to an invalid Location ${shown(location!)}`);
      }
      if (!isHttpUrl(next)) fail(`redirects to ${shown(next)}: only http and https redirects are followed`);
      if (accessFor(policy, next) === undefined) {
        const origin = originOf(next);
        fail(`redirects to ${shown(next)}, another origin: not followed`, {
          hint: `if ${origin} serves the document, allow it in the config: "fetch": { "origins": { ${JSON.stringify(origin)}: {} } } (the headers of the spec's origin are not sent there)`,
        });
      }
      if (redirects >= MAX_REDIRECTS) throw new FetchError(`redirects more than ${MAX_REDIRECTS} times (the last time to ${shown(next)})`, { location: url });
      current = next;
      continue;
    }

    const found = { finalUrl: current, ...validatorsOf(response.headers) };
    if (response.status === 304) {
      await discard(response);
      if (!conditional) fail("answered 304 Not Modified to a request that was not conditional");
      return { status: 304, ...found, etag: found.etag ?? validators!.etag, lastModified: found.lastModified ?? validators!.lastModified };
    }
    if (response.status < 200 || response.status > 299) {
      await discard(response);
      fail(`answered ${statusLine(response.status)}${via}`, { hint: statusHint(response.status) });
    }
    const contentType = response.headers.get("content-type") ?? undefined;
    if (contentType !== undefined && /^\s*(text\/html|application\/xhtml\+xml)\b/i.test(contentType)) {
      await discard(response);
      fail(`is not a JSON or YAML document: the server sent an HTML page (Content-Type: ${shown(contentType)})`, {
        hint: "the URL may be a documentation or login page: use the URL of the raw document (and its headers, if it needs credentials)",
      });
    }
    const length = Number(response.headers.get("content-length") ?? NaN);
    // A compressed body's length says nothing about its decoded size, which is what the cap is about.
    if (!response.headers.has("content-encoding") && length > policy.maxBytes) {
      await discard(response);
      fail(`is ${length} bytes (Content-Length), more than the limit of ${policy.maxBytes} bytes`, { hint: TOO_LARGE_HINT });
    }
    let bytes: Buffer;
    try {
      bytes = await readCapped(response, policy.maxBytes);
    } catch (error) {
      if (error === TOO_LARGE) return fail(`sent more than the limit of ${policy.maxBytes} bytes`, { hint: TOO_LARGE_HINT });
      if (options.signal?.aborted) throw options.signal.reason;
      const [message, more] = describeNetworkFailure(error, deadline.aborted, policy.timeoutMs);
      return fail(proxy ? message.replace(/^cannot be fetched|^did not answer/, (start) => `${start}${via}`) : message, more);
    }
    return { status: 200, bytes, contentType, ...found };
  }
}

const STALE_CONNECTION = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET"]);

function causeCode(error: unknown): string | undefined {
  return (error as { cause?: { code?: string } })?.cause?.code;
}

const TOO_LARGE = Symbol("too large");
const TOO_LARGE_HINT = "raise `maxSpecFileBytes` in the config (or pass --max-spec-file-bytes N) if the document is meant to be this large";

/** Reads the body, never holding more than `max` bytes: a body that goes past it is cancelled there. */
async function readCapped(response: Response, max: number): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      throw TOO_LARGE;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}

function validatorsOf(headers: Headers): Validators {
  const etag = headers.get("etag") ?? undefined;
  const lastModified = headers.get("last-modified") ?? undefined;
  // They are recorded in the manifest and sent back: only what a server would plausibly send.
  const ok = (value: string | undefined) => (value !== undefined && value.length <= 512 && !/[\u0000-\u001f\u007f]/.test(value) ? value : undefined);
  return { ...(ok(etag) ? { etag } : {}), ...(ok(lastModified) ? { lastModified } : {}) };
}

function statusLine(status: number): string {
  return `${status} ${STATUS_CODES[status] ?? ""}`.trim();
}

function statusHint(status: number): string | undefined {
  if (status === 401 || status === 403) {
    return "the document needs credentials: set SPECFORGE_SPEC_TOKEN (sent as `Authorization: Bearer …`), or name the environment variable of each header in the config's `fetch.headers`";
  }
  if (status === 404 || status === 410) return "the vendor may have moved or removed the document: check the URL";
  if (status === 429 || status >= 500) return "the server could not answer now: try again later, or pass --offline to generate from the copy in the cache";
  return undefined;
}

/**
 * A proxy that would not carry the request: 407 (credentials missing or refused) is the proxy's configuration; a
 * tunnel refused with 502/503/504 means the proxy could not reach the origin, as unreachable as a refused connection.
 */
function describeTunnelRefusal(refused: TunnelRefused, proxy: Proxy, target: string): [string, { hint?: string; unreachable?: boolean }] {
  const answer = `${refused.status} ${refused.statusText || (STATUS_CODES[refused.status] ?? "")}`.trim();
  const origin = new URL(target).host;
  if (refused.status === 407) {
    const hint = proxy.url.username
      ? `the proxy refused the credentials in ${proxy.variable}: check the user and password there (percent-encode @ : / in them)`
      : `the proxy asks for credentials: put them in ${proxy.variable} (http://user:password@host:port)`;
    return [`cannot be fetched: the proxy ${proxy.shown} (${proxy.variable}) answered ${answer}`, { hint }];
  }
  return [
    `cannot be fetched: the proxy ${proxy.shown} (${proxy.variable}) answered ${answer} when asked to connect to ${origin}`,
    {
      unreachable: refused.status === 502 || refused.status === 503 || refused.status === 504,
      hint: `if ${new URL(target).hostname} is inside the network, list it in NO_PROXY`,
    },
  ];
}

/** What a failed fetch (or body read) means, in words, and whether the network was out of reach. */
function describeNetworkFailure(error: unknown, timedOut: boolean, timeoutMs: number): [string, { hint?: string; unreachable?: boolean; cause?: unknown }] {
  if (timedOut) {
    return [`did not answer within ${timeoutMs} ms`, { unreachable: true, cause: error, hint: "a slow server or network: raise `fetch.timeoutMs` in the config" }];
  }
  const cause = (error as { cause?: { code?: string; message?: string; hostname?: string } })?.cause;
  const code = cause?.code;
  const detail = (text: string, unreachable: boolean, hint?: string): [string, { hint?: string; unreachable?: boolean; cause?: unknown }] => [
    `cannot be fetched: ${text}`,
    { unreachable, cause: error, ...(hint ? { hint } : {}) },
  ];
  switch (code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return detail(`${cause?.hostname ? `host ${shown(cause.hostname)}` : "the host"} not found (${code})`, true, "check the URL's host name, and that this machine is online");
    case "ECONNREFUSED":
      return detail("connection refused (ECONNREFUSED)", true);
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return detail(`the connection was closed before the document arrived (${code})`, true);
    case "ETIMEDOUT":
    case "UND_ERR_CONNECT_TIMEOUT":
      return detail(`the connection timed out (${code})`, true);
    case "ENETUNREACH":
    case "EHOSTUNREACH":
    case "ENETDOWN":
      return detail(`the network is unreachable (${code})`, true);
    default:
      break;
  }
  if (code !== undefined && /CERT|SSL|TLS|SELF_SIGNED/.test(code)) {
    return detail(`the server's TLS certificate was refused (${code})`, false, "NODE_EXTRA_CA_CERTS=file.pem adds a certificate authority (a company proxy's)");
  }
  const message = cause?.message ?? (error as Error)?.message ?? String(error);
  return detail(`${shown(message)}${code ? ` (${code})` : ""}`, false);
}

/** Text from a server or a URL, safe to print: control characters escaped, at most 300 characters. */
function shown(text: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  return safe.length > 300 ? `${safe.slice(0, 300)}…` : safe;
}
