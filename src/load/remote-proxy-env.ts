import { BlockList, isIP } from "node:net";

/**
 * Which HTTP(S) proxy a spec URL is fetched through, from the environment variables curl and most tools read
 * (Node 20's `fetch` reads none of them). Only the settings: the requests are remote-proxy.ts's, loaded when a
 * proxy is used.
 */

/** A proxy variable as the environment holds it; parsed when a request needs it (`check` offline needs none). */
export interface ProxyVariable {
  /** `https_proxy`, `HTTPS_PROXY`, … (the one that was set), for messages. */
  variable: string;
  value: string;
}

/** The proxy settings of the environment: lower-case names first, as curl reads them. */
export interface ProxyEnvironment {
  http?: ProxyVariable;
  https?: ProxyVariable;
  /** NO_PROXY's entries, lower case, trimmed. */
  noProxy: string[];
}

/** Reads `http_proxy`, `https_proxy`, `no_proxy` (else their upper-case names); an empty value is unset. */
export function proxiesFromEnv(env: NodeJS.ProcessEnv): ProxyEnvironment {
  const pick = (name: string): ProxyVariable | undefined => {
    for (const variable of [name, name.toUpperCase()]) {
      const value = env[variable]?.trim();
      if (value) return { variable, value };
    }
    return undefined;
  };
  const http = pick("http_proxy");
  const https = pick("https_proxy");
  const noProxy = (pick("no_proxy")?.value ?? "")
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== "");
  return { ...(http ? { http } : {}), ...(https ? { https } : {}), noProxy };
}

/** A proxy to send a request through. */
export interface Proxy {
  url: URL;
  /** The variable it came from, for messages. */
  variable: string;
  /** `http://proxy.corp:3128`: without its credentials, safe to print. */
  shown: string;
}

/** A proxy variable that is not a usable proxy URL (the message names the variable, never its value: it may hold a password). */
export class ProxyConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(message);
  }
}

/** The proxy for `url` under the environment's settings, or undefined when it is fetched directly. */
export function proxyFor(url: string, proxies: ProxyEnvironment | undefined): Proxy | undefined {
  if (proxies === undefined) return undefined;
  const target = new URL(url);
  const setting = target.protocol === "https:" ? proxies.https : target.protocol === "http:" ? proxies.http : undefined;
  if (setting === undefined || bypassed(target, proxies.noProxy)) return undefined;
  return parseProxy(setting);
}

function parseProxy({ variable, value }: ProxyVariable): Proxy {
  // `proxy.corp:3128` without a scheme is an http proxy, as curl reads it.
  const text = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ProxyConfigError(variable, `${variable} is not a proxy URL (http://host:port)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ProxyConfigError(variable, `${variable} names a ${url.protocol.slice(0, -1)} proxy: only http:// and https:// proxies are supported`);
  }
  if (url.hostname === "") throw new ProxyConfigError(variable, `${variable} is not a proxy URL (http://host:port)`);
  return { url, variable, shown: `${url.protocol}//${url.host}` };
}

/**
 * Whether NO_PROXY exempts `target`: `*` exempts all; `host` exempts it and its subdomains (`.host` and `*.host`
 * the same, as curl reads them); `host:port` only that port. Names are compared without a trailing dot. A URL whose
 * host is an IP literal is matched against IP entries only, by address (`::1` is `0:0::1`), and against CIDR ranges
 * (`10.0.0.0/8`, `fd00::/8`) as curl ≥ 7.86 matches them; a name is never resolved to match a range.
 */
export function bypassed(target: URL, noProxy: readonly string[]): boolean {
  const host = unbracket(target.hostname.toLowerCase()).replace(/\.$/, "");
  const port = target.port || (target.protocol === "https:" ? "443" : "80");
  const family = isIP(host);
  for (const raw of noProxy) {
    if (raw === "*") return true;
    if (family !== 0 && raw.includes("/")) {
      if (inRange(host, family, raw)) return true;
      continue;
    }
    let entry = raw;
    let entryPort: string | undefined;
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
    if (bracketed) {
      entry = bracketed[1]!;
      entryPort = bracketed[2];
    } else if (/^[^:]+:\d+$/.test(entry)) {
      [entry, entryPort] = entry.split(":") as [string, string];
    }
    if (entryPort !== undefined && entryPort !== port) continue;
    entry = entry.replace(/^\*?\./, "").replace(/\.$/, "");
    if (entry === "") continue;
    if (family !== 0 ? inRange(host, family, entry) : host === entry || host.endsWith(`.${entry}`)) return true;
  }
  return false;
}

/**
 * Whether the IP `host` (of `family` 4 or 6) is `entry`'s address or in its `address/bits` range. As curl reads an
 * entry: the bits are the digits after the slash (none, or `/0`, means the whole address); an address of the
 * other family, one that does not parse, or more bits than it has matches nothing.
 */
function inRange(host: string, family: number, entry: string): boolean {
  const slash = entry.indexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  if (isIP(address) !== family) return false;
  const bits = slash === -1 ? 0 : Number(/^\d*/.exec(entry.slice(slash + 1))![0] || 0);
  const type = family === 4 ? "ipv4" : "ipv6";
  const whole = family === 4 ? 32 : 128;
  if (bits > whole) return false;
  const range = new BlockList();
  range.addSubnet(address, bits === 0 ? whole : bits, type);
  return range.check(host, type);
}

function unbracket(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** The proxy refused to open a tunnel (its answer to CONNECT was not 2xx). */
export class TunnelRefused extends Error {
  constructor(
    readonly status: number,
    readonly statusText: string,
  ) {
    super(`CONNECT answered ${status}`);
  }
}

