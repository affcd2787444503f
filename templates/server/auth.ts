/**
 * Credentials read from a request per the operation's security requirements (the spec's `security` and
 * `components.securitySchemes`): bearer and basic `Authorization`, other HTTP schemes, API keys in a header, query
 * parameter or cookie. The router hands the first satisfied alternative to `authenticate`, keyed by scheme.
 */
import type { Incoming } from "./incoming.js";
import { parseCookies } from "./params.js";
import type { SchemaDocument } from "./schema.js";
import type { RouteSpec, SchemeCredentials } from "./types.js";

/** A scheme of `components.securitySchemes`, as much of it as the router reads. */
interface SchemeObject {
  type?: unknown;
  scheme?: unknown;
  in?: unknown;
  name?: unknown;
}

/** How one route reads credentials. */
export interface RouteAuth {
  /** True when no alternative lets a request without credentials through. */
  required: boolean;
  /**
   * The credentials of the first alternative the request satisfies, by scheme key; `undefined` when it satisfies
   * none that needs credentials.
   */
  read(incoming: Incoming): Record<string, SchemeCredentials> | undefined;
  /** `WWW-Authenticate` of a 401 for a request without (usable) credentials; `undefined` when no HTTP scheme applies. */
  challenge: string | undefined;
  /** `WWW-Authenticate` of a 401 for credentials `authenticate` refused. */
  invalidChallenge: string | undefined;
}

/** A scheme as the reader applies it. */
type Reader = (incoming: Incoming, cookies: () => Map<string, string>) => SchemeCredentials | undefined;

/** The cookie jar handed to readers of routes that read no cookie (never called). */
const NO_COOKIES = (): Map<string, string> => new Map();

/** Used for routes that say `secured` without `security` (route tables written before security schemes): bearer. */
const LEGACY_BEARER = { scheme: "bearer", scopes: [] as string[] };

/**
 * Compiles how a route reads credentials; `undefined` for a route with no security. A requirement that names a
 * scheme the document does not declare (or one the router cannot read, such as mutualTLS) can never be satisfied.
 */
export function compileAuth(route: RouteSpec, document: SchemaDocument): RouteAuth | undefined {
  const requirements = route.security ?? (route.secured ? [[LEGACY_BEARER]] : []);
  const withSchemes = requirements.filter((alternative) => alternative.length > 0);
  if (withSchemes.length === 0) return undefined;
  const declared = (document.components?.securitySchemes ?? {}) as Record<string, SchemeObject>;
  const lookup = (key: string): SchemeObject | undefined =>
    Object.hasOwn(declared, key) ? declared[key] : route.security === undefined ? { type: "http", scheme: "bearer" } : undefined;
  const alternatives = withSchemes.map((alternative) =>
    alternative.map((item) => ({ key: item.scheme, read: readerFor(lookup(item.scheme), item.scopes ?? []) })),
  );
  const readsCookies = withSchemes.some((alternative) => alternative.some((item) => lookup(item.scheme)?.in === "cookie"));
  const challenges = new Set<string>();
  let bearer = false;
  for (const alternative of withSchemes) {
    for (const item of alternative) {
      const scheme = lookup(item.scheme);
      const type = scheme?.type;
      const httpScheme = typeof scheme?.scheme === "string" ? scheme.scheme : "";
      if (type === "oauth2" || type === "openIdConnect" || (type === "http" && httpScheme.toLowerCase() === "bearer")) {
        bearer = true;
        challenges.add("Bearer");
      } else if (type === "http" && httpScheme.toLowerCase() === "basic") challenges.add('Basic realm="api", charset="UTF-8"');
      else if (type === "http" && /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(httpScheme)) challenges.add(httpScheme);
    }
  }
  const challenge = challenges.size > 0 ? [...challenges].join(", ") : undefined;
  return {
    required: !requirements.some((alternative) => alternative.length === 0),
    challenge,
    invalidChallenge: bearer ? [...challenges].map((c) => (c === "Bearer" ? 'Bearer error="invalid_token"' : c)).join(", ") : challenge,
    read(incoming) {
      let cookies: Map<string, string> | undefined;
      // (A closure per request only for routes that read a cookie.)
      const cookieJar = readsCookies ? () => (cookies ??= parseCookies(incoming.header("cookie"))) : NO_COOKIES;
      for (const alternative of alternatives) {
        const found: Record<string, SchemeCredentials> = {};
        let satisfied = true;
        for (const { key, read } of alternative) {
          const credentials = read?.(incoming, cookieJar);
          if (credentials === undefined) {
            satisfied = false;
            break;
          }
          // A scheme named "__proto__" is a key like any other (an assignment would set the prototype).
          if (key === "__proto__") Object.defineProperty(found, key, { value: credentials, enumerable: true, writable: true, configurable: true });
          else found[key] = credentials;
        }
        if (satisfied) return found;
      }
      return undefined;
    },
  };
}

function readerFor(scheme: SchemeObject | undefined, scopes: string[]): Reader | undefined {
  if (!scheme) return undefined;
  const type = scheme.type;
  if (type === "oauth2" || type === "openIdConnect") {
    return (incoming) => {
      const token = authorization(incoming, "bearer");
      return token === undefined ? undefined : { type, token, scopes };
    };
  }
  if (type === "http" && typeof scheme.scheme === "string") {
    const name = scheme.scheme.toLowerCase();
    if (name === "bearer") {
      return (incoming) => {
        const token = authorization(incoming, "bearer");
        return token === undefined ? undefined : { type: "bearer", token };
      };
    }
    if (name === "basic") {
      return (incoming) => {
        const encoded = authorization(incoming, "basic");
        return encoded === undefined ? undefined : basic(encoded);
      };
    }
    return (incoming) => {
      const credentials = authorization(incoming, name);
      return credentials === undefined ? undefined : { type: "http", scheme: scheme.scheme as string, credentials };
    };
  }
  if (type === "apiKey" && typeof scheme.name === "string") {
    const name = scheme.name;
    const lower = name.toLowerCase();
    const found = (value: string | null | undefined): SchemeCredentials | undefined =>
      value === null || value === undefined || value === "" ? undefined : { type: "apiKey", in: scheme.in as "header", name, value };
    if (scheme.in === "header") return (incoming) => found(incoming.header(lower));
    if (scheme.in === "query") return (incoming) => found(incoming.searchParams.get(name));
    if (scheme.in === "cookie") return (_incoming, cookies) => found(cookies().get(name));
  }
  return undefined;
}

/**
 * The credentials after `<scheme> ` in the Authorization header (scheme case-insensitive, RFC 9110), trimmed;
 * `undefined` when the header is missing, names another scheme or has nothing after it.
 */
function authorization(incoming: Incoming, scheme: string): string | undefined {
  const header = incoming.header("authorization");
  if (!header) return undefined;
  // The usual "Bearer <token>" needs no lower-casing of the whole header.
  if (header.length > scheme.length + 1 && (header[scheme.length] === " " || header[scheme.length] === "\t")) {
    const given = header.slice(0, scheme.length);
    if (given === scheme || given.toLowerCase() === scheme) {
      const value = header.slice(scheme.length + 1).trim();
      return value === "" ? undefined : value;
    }
  }
  return undefined;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** `Basic base64(user:password)`, UTF-8 (RFC 7617); `undefined` when it does not decode to `user:password`. */
function basic(encoded: string): SchemeCredentials | undefined {
  if (!BASE64.test(encoded) || encoded.length % 4 === 1) return undefined;
  let text: string;
  try {
    const binary = atob(encoded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const colon = text.indexOf(":");
  if (colon === -1) return undefined;
  return { type: "basic", username: text.slice(0, colon), password: text.slice(colon + 1) };
}
