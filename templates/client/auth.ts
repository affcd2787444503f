/**
 * Credentials from the spec's security schemes: which of an operation's requirements the client can satisfy with
 * the credentials it was given, and what that puts on the request (headers, query parameters, cookies). A spec
 * whose only scheme sends a token gets token.ts alone.
 */
import type { RuntimeFeatures } from "./runtime.js";
import { applyToken, authorizing, credentialValue, isThenable } from "./token.js";
import type { AppliedCredentials, SecurityRequirementItem, SecuritySchemeSpec } from "./types.js";
import { isPresent } from "./values.js";

export type { AppliedCredentials };

/** Credentials from the security schemes, for `createRuntime`. */
export const authFeature: RuntimeFeatures = { credentials: credentialsFor, authorize: authorizing(credentialsFor) };

/**
 * The credentials for one call: the first alternative of `requirements` whose schemes all have a credential (an
 * alternative without schemes counts only when no other can be satisfied, so an optional credential is still
 * sent), or `undefined`. A function credential is called at most once per attempt (`renew` tells the runtime to ask
 * again for the next one); the result is a promise only when one of them returns a promise.
 *
 * @param values - the client options (credentials are read by the option names in `schemes`).
 */
export function credentialsFor(
  operation: string,
  requirements: readonly (readonly SecurityRequirementItem[])[],
  schemes: Readonly<Record<string, SecuritySchemeSpec>>,
  values: Readonly<Record<string, unknown>>,
): AppliedCredentials | undefined | Promise<AppliedCredentials | undefined> {
  const resolved = new Map<string, unknown>();
  // (One result for every alternative tried, so that it keeps `renew` when a function answered `undefined`.)
  const out: AppliedCredentials = { headers: [], query: [], cookies: [] };
  const credential = (item: SecurityRequirementItem): unknown => {
    if (resolved.has(item.scheme)) return resolved.get(item.scheme);
    const scheme = Object.hasOwn(schemes, item.scheme) ? schemes[item.scheme] : undefined;
    const value = scheme && credentialValue(operation, item, scheme, values, out);
    resolved.set(item.scheme, value);
    return value;
  };
  const alternatives = requirements.filter((alternative) => alternative.length > 0);
  const from = (start: number): AppliedCredentials | undefined | Promise<AppliedCredentials | undefined> => {
    for (let i = start; i < alternatives.length; i++) {
      const alternative = alternatives[i]!;
      const found = alternative.map(credential);
      const apply = (list: unknown[]) => {
        // (A promise for one scheme is replaced by its value, so the next alternative does not call it again.)
        alternative.forEach((item, j) => resolved.set(item.scheme, list[j]));
        return list.every(isPresent) ? applied(alternative, list, schemes, out) : from(i + 1);
      };
      if (found.some(isThenable)) return Promise.all(found).then(apply);
      if (found.every(isPresent)) return applied(alternative, found, schemes, out);
    }
    return out.renew ? out : undefined;
  };
  return from(0);
}

function applied(
  alternative: readonly SecurityRequirementItem[],
  values: readonly unknown[],
  schemes: Readonly<Record<string, SecuritySchemeSpec>>,
  out: AppliedCredentials,
): AppliedCredentials {
  alternative.forEach((item, i) => {
    const scheme = schemes[item.scheme]!;
    if (scheme.type !== "basic") return applyToken(scheme, values[i], out);
    const { username, password } = basicCredentials(values[i], scheme.options[0]);
    out.headers.push(["Authorization", `Basic ${base64(`${username}:${password}`)}`]);
  });
  return out;
}

function basicCredentials(value: unknown, option: string | undefined): { username: string; password: string } {
  const record = value as { username?: unknown; password?: unknown } | undefined;
  if (typeof record !== "object" || record === null || typeof record.username !== "string" || typeof record.password !== "string") {
    throw new TypeError(`The client option "${option}" must be { username, password } (strings), or a function returning it`);
  }
  // RFC 7617: the user-id cannot contain a colon (the server splits at the first one).
  if (record.username.includes(":")) throw new TypeError(`The client option "${option}": a basic-auth username cannot contain ":"`);
  return { username: record.username, password: record.password };
}

/** Base64 of the UTF-8 bytes of `text` (RFC 7617 recommends UTF-8). */
function base64(text: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
