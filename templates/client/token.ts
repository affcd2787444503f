/**
 * The credential of one security scheme: the client option that holds it (a value, or a function called per call),
 * and where a token goes on the request. On its own (`tokenFeature`) it serves a spec whose schemes all send a token
 * (bearer, another HTTP scheme, an API key, OAuth 2 without the device flow) and whose security requirements ask
 * for one scheme at a time; auth.ts adds requirements of several schemes and HTTP basic on top of it.
 */
import type { AuthorizedAttempt, RuntimeFeatures } from "./runtime.js";
import type { AppliedCredentials, CredentialContext, SecurityRequirementItem, SecuritySchemeSpec } from "./types.js";
import { pair } from "./values.js";

/**
 * Credentials for a spec whose schemes all send a token and whose requirements name one scheme per alternative, for
 * `createRuntime`: the first alternative whose scheme has a credential, as auth.ts `credentialsFor` would choose
 * it (its general case, several schemes at once and HTTP basic, is what this leaves out). A function credential is
 * called at most once per attempt (`renew` tells the runtime to ask again for the next one).
 */
export const tokenFeature: RuntimeFeatures = {
  credentials: chooseToken,
  authorize: authorizing(chooseToken),
};

function chooseToken(
  operation: string,
  requirements: readonly (readonly SecurityRequirementItem[])[],
  schemes: Readonly<Record<string, SecuritySchemeSpec>>,
  values: Readonly<Record<string, unknown>>,
): AppliedCredentials | undefined | Promise<AppliedCredentials | undefined> {
  // (One result for every alternative tried, so that it keeps `renew` when a function answered `undefined`.)
  const out: AppliedCredentials = { headers: [], query: [], cookies: [] };
  const from = (start: number): AppliedCredentials | undefined | Promise<AppliedCredentials | undefined> => {
    for (let i = start; i < requirements.length; i++) {
      const item = requirements[i]![0];
      // (No scheme, one the client does not know, or one an earlier alternative already asked for.)
      if (!item || !Object.hasOwn(schemes, item.scheme) || requirements.findIndex((other) => other[0]?.scheme === item.scheme) < i) continue;
      const scheme = schemes[item.scheme]!;
      const apply = (token: unknown): AppliedCredentials | undefined | Promise<AppliedCredentials | undefined> => {
        if (token === undefined || token === null) return from(i + 1);
        applyToken(scheme, token, out);
        return out;
      };
      const value = credentialValue(operation, item, scheme, values, out);
      return isThenable(value) ? Promise.resolve(value).then(apply) : apply(value);
    }
    return out.renew ? out : undefined;
  };
  return from(0);
}

/**
 * `RuntimeFeatures.authorize` for credentials chosen by `choose` (this module's, auth.ts `credentialsFor`): for an
 * operation with security, their headers set and their query pairs after the call's query.
 */
export function authorizing(choose: NonNullable<RuntimeFeatures["credentials"]>): NonNullable<RuntimeFeatures["authorize"]> {
  return (schemes, values) => (spec, headers, query) => {
    const apply = (credentials: AppliedCredentials | undefined): AuthorizedAttempt => {
      for (const [name, value] of credentials?.headers ?? []) headers.set(name, value);
      return [credentials?.query.length ? [query, ...credentials.query.map(([name, value]) => pair(name, value))].filter(Boolean).join("&") : query, credentials];
    };
    if (!spec.security?.length) return undefined;
    const found = choose(spec.name, spec.security, schemes, values as Readonly<Record<string, unknown>>);
    return found instanceof Promise ? found.then(apply) : apply(found);
  };
}

/**
 * The value of the first option of `scheme` the client was given; a function is called with the call's context, and
 * marks `out` to be asked again for the next attempt.
 */
export function credentialValue(
  operation: string,
  item: SecurityRequirementItem,
  scheme: SecuritySchemeSpec,
  values: Readonly<Record<string, unknown>>,
  out: AppliedCredentials,
): unknown {
  const option = scheme.options.find((name) => values[name] !== undefined && values[name] !== null);
  const value = option === undefined ? undefined : values[option];
  if (typeof value !== "function") return value;
  out.renew = true;
  const context: CredentialContext = { operation, scheme: item.scheme, scopes: item.scopes ?? [] };
  return (value as (context: CredentialContext) => unknown)(context);
}

/** Puts the token of a scheme that is not HTTP basic where the scheme says (a header, the query or a cookie). */
export function applyToken(scheme: SecuritySchemeSpec, value: unknown, out: AppliedCredentials): void {
  if (typeof value !== "string") throw new TypeError(`The client option "${scheme.options[0]}" must be a string, or a function returning one`);
  if (scheme.type === "bearer") out.headers.push(["Authorization", `Bearer ${value}`]);
  else if (scheme.type === "http") out.headers.push(["Authorization", `${scheme.scheme} ${value}`]);
  else if (scheme.type !== "apiKey") return;
  else if (scheme.in === "header") out.headers.push([scheme.name, value]);
  else if (scheme.in === "query") out.query.push([scheme.name, value]);
  else out.cookies.push([scheme.name, value]);
}

export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}
