/**
 * The token path (token.ts) is what a client gets instead of auth.ts when every scheme sends a token and every
 * requirement asks for one scheme at a time: for those specs it must choose and apply credentials exactly as the
 * general `credentialsFor` does.
 */
import { describe, expect, test } from "vitest";
import { credentialsFor, tokenFeature, type CredentialContext, type SecurityRequirementItem, type SecuritySchemeSpec } from "../../../templates/client/index.js";

const schemes: Record<string, SecuritySchemeSpec> = {
  bearer: { type: "bearer", options: ["bearer", "apiKey"] },
  header: { type: "apiKey", in: "header", name: "X-Key", options: ["headerKey"] },
  query: { type: "apiKey", in: "query", name: "key", options: ["queryKey"] },
  cookie: { type: "apiKey", in: "cookie", name: "session", options: ["cookieKey"] },
  digest: { type: "http", scheme: "Digest", options: ["digest"] },
};

const one = (scheme: string, scopes?: string[]): SecurityRequirementItem[] => [scopes ? { scheme, scopes } : { scheme }];
const requirements: [string, SecurityRequirementItem[][]][] = [
  ["one scheme", [one("bearer")]],
  ["optional", [[], one("bearer")]],
  ["bearer or header key", [one("bearer"), one("header")]],
  ["header key or bearer", [one("header"), one("bearer")]],
  ["query, cookie or digest", [one("query"), one("cookie"), one("digest")]],
  ["an unknown scheme first", [one("mutualTLS"), one("header")]],
  ["the same scheme twice, with scopes", [one("bearer", ["a"]), one("header"), one("bearer", ["b"])]],
  ["none", []],
];

type Values = Record<string, unknown>;
const values: [string, () => Values][] = [
  ["nothing", () => ({})],
  ["the bearer token", () => ({ bearer: "t" })],
  ["the alias", () => ({ apiKey: "alias" })],
  ["both names (the scheme's own wins)", () => ({ bearer: "own", apiKey: "alias" })],
  ["a header key", () => ({ headerKey: "k" })],
  ["every key", () => ({ bearer: "t", headerKey: "k", queryKey: "q", cookieKey: "c", digest: "d" })],
  ["null for the bearer", () => ({ bearer: null, headerKey: "k" })],
  ["functions", () => ({ bearer: (c: CredentialContext) => `fn:${c.scopes.join(",")}`, queryKey: () => "q" })],
  ["a function returning undefined", () => ({ bearer: () => undefined, headerKey: "k", cookieKey: () => "c" })],
  ["async functions", () => ({ bearer: async () => undefined, headerKey: async () => "k", queryKey: () => Promise.resolve("q") })],
  ["only functions returning nothing", () => ({ bearer: () => undefined, queryKey: async () => undefined })],
  ["a thenable", () => ({ headerKey: { then: (resolve: (value: string) => void) => resolve("thenable") } })],
  ["a number", () => ({ bearer: 42, headerKey: 7 })],
];

/** What one credentials function makes of a call, and which credential functions it called (with what). */
async function outcome(credentials: NonNullable<typeof tokenFeature.credentials>, required: SecurityRequirementItem[][], given: Values) {
  const calls: string[] = [];
  const spied: Values = {};
  for (const [name, value] of Object.entries(given)) {
    spied[name] =
      typeof value === "function"
        ? (context: CredentialContext) => {
            calls.push(`${name}(${context.operation} ${context.scheme} ${context.scopes.join(",")})`);
            return (value as (context: CredentialContext) => unknown)(context);
          }
        : value;
  }
  try {
    return { applied: await credentials("op", required, schemes, spied), calls };
  } catch (error) {
    return { threw: String(error), calls };
  }
}

describe("token.ts chooses and applies credentials as auth.ts does", () => {
  for (const [requirement, required] of requirements) {
    test.each(values)(`${requirement}, given %s`, async (_name, given) => {
      const general = await outcome(credentialsFor, required, given());
      expect(await outcome(tokenFeature.credentials!, required, given())).toEqual(general);
    });
  }

  test("the cases above cover applied credentials, none, function calls and errors", async () => {
    const outcomes = await Promise.all(requirements.flatMap(([, required]) => values.map(([, given]) => outcome(credentialsFor, required, given()))));
    expect(outcomes.some((o) => o.applied?.headers.length)).toBe(true);
    expect(outcomes.some((o) => o.applied?.query.length)).toBe(true);
    expect(outcomes.some((o) => o.applied?.cookies.length)).toBe(true);
    expect(outcomes.some((o) => "applied" in o && o.applied === undefined)).toBe(true);
    expect(outcomes.some((o) => o.threw)).toBe(true);
    expect(outcomes.some((o) => o.calls.length > 1)).toBe(true);
  });
});
