import OpenAI from "openai";
import Stripe from "stripe";
import { Octokit } from "@octokit/rest";

/** One API method of a vendor's SDK: its dotted name and the request it sends (path with `{…}` where arguments go). */
export interface SdkMethod {
  name: string;
  method: string;
  path: string;
}

/**
 * Helpers built on the API methods (streams, parsers, pollers, tool runners): not API methods of their own. The SDKs'
 * own plumbing (`withResponse`, `_client`, …) too.
 */
const HELPERS = /^(stream|.*Stream|parse|runTools|.*Poll|poll|withResponse|asResponse|_.*|constructor|waitForProcessing|toFile|connect)$/;

/** A value that stands for any argument: every property is another, and as a string it is `{name}`. */
function placeholder(name: string): unknown {
  return new Proxy(
    {},
    {
      get(_, key) {
        if (key === Symbol.toPrimitive || key === "toString" || key === "valueOf") return () => `{${name}}`;
        if (typeof key === "symbol" || key === "then") return undefined;
        return placeholder(String(key));
      },
      ownKeys: () => [],
      has: () => false,
    },
  );
}

/** Every method of the openai package's resources, called with placeholders against a client that records instead of sending. */
async function openaiMethods(): Promise<SdkMethod[]> {
  const out: SdkMethod[] = [];
  const client = new OpenAI({ apiKey: "x" });
  const seen = new Set<object>();
  const verbs: Record<string, string> = { get: "GET", post: "POST", put: "PUT", patch: "PATCH", delete: "DELETE", getAPIList: "GET" };
  const recorder: Record<string, (...args: unknown[]) => never> = {};
  for (const verb of [...Object.keys(verbs), "request", "methodRequest"]) {
    recorder[verb] = (...args) => {
      throw { recorded: verb, args };
    };
  }
  const walk = async (resource: Record<string, any>, prefix: string[]): Promise<void> => {
    if (seen.has(resource)) return;
    seen.add(resource);
    for (const key of Object.keys(resource)) {
      const value = resource[key];
      if (!key.startsWith("_") && value && typeof value === "object" && value._client) await walk(value, [...prefix, key]);
    }
    const names = new Set<string>();
    for (let proto = Object.getPrototypeOf(resource); proto && proto !== Object.prototype && proto.constructor.name !== "APIResource"; proto = Object.getPrototypeOf(proto)) {
      for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
    }
    for (const name of names) {
      if (HELPERS.test(name) || typeof resource[name] !== "function") continue;
      const fake = Object.create(resource);
      Object.defineProperty(fake, "_client", { value: new Proxy(recorder, { get: (target, key: string) => target[key] ?? resource._client[key] }) });
      try {
        const result = resource[name].call(fake, placeholder("a0"), placeholder("a1"), placeholder("a2"));
        if (result && typeof result.then === "function") await result;
      } catch (error) {
        const recorded = error as { recorded?: string; args: unknown[] };
        if (!recorded?.recorded) continue;
        let [path] = recorded.args;
        let method = verbs[recorded.recorded];
        const listOptions = recorded.args[2] as { method?: unknown } | undefined;
        if (recorded.recorded === "getAPIList" && typeof listOptions?.method === "string") method = listOptions.method.toUpperCase();
        if (recorded.recorded === "request" || recorded.recorded === "methodRequest") [method, path] = [String(recorded.args[0]).toUpperCase(), recorded.args[1]];
        out.push({ name: [...prefix, name].join("."), method: method!, path: decodeURIComponent(String(path)) });
      }
    }
  };
  await walk(client as unknown as Record<string, any>, []);
  return out;
}

/** Every method of the stripe package's resources, called with 0 to 4 placeholder ids against a fetch that records. */
async function stripeMethods(): Promise<SdkMethod[]> {
  const out: SdkMethod[] = [];
  let last: { method: string; url: string } | undefined;
  const fetchFn = async (url: unknown, init: { method: string }) => {
    last = { method: init.method, url: String(url) };
    throw new Error("recorded");
  };
  const stripe = new Stripe("sk_test_x", { httpClient: Stripe.createFetchHttpClient(fetchFn as never), maxNetworkRetries: 0 });
  const seen = new Set<object>();
  const plumbing = /^(basePath|path|includeBasic|createResourcePathWithSymbols|createFullPath|createResourcePath|extend|method|initialize|requestDataProcessor)$/;
  const isResource = (value: any) => value && typeof value === "object" && (value._stripe || Object.values(value).some((x: any) => x && typeof x === "object" && x._stripe));
  const walk = async (resource: Record<string, any>, prefix: string[]): Promise<void> => {
    if (seen.has(resource)) return;
    seen.add(resource);
    for (const key of Object.keys(resource)) {
      if (!key.startsWith("_") && key !== "errors" && key !== "webhooks" && isResource(resource[key])) await walk(resource[key], [...prefix, key]);
    }
    if (!resource._stripe) return;
    const names = new Set<string>();
    for (let proto = resource; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) for (const name of Object.getOwnPropertyNames(proto)) names.add(name);
    for (const name of names) {
      if (HELPERS.test(name) || plumbing.test(name) || typeof resource[name] !== "function") continue;
      let recorded: typeof last;
      for (let count = 0; count <= 4 && !recorded; count++) {
        last = undefined;
        try {
          const result = resource[name](...Array.from({ length: count }, (_, i) => `{a${i}}`));
          if (result && typeof result.then === "function") await result.catch(() => {});
        } catch {
          // (Too few arguments for its path.)
        }
        recorded = last;
      }
      if (recorded) out.push({ name: [...prefix, name].join("."), method: recorded.method, path: decodeURIComponent(new URL(recorded.url).pathname) });
    }
  };
  await walk(stripe as unknown as Record<string, any>, []);
  return out;
}

/** `@octokit/rest`'s methods: each carries its route. */
function octokitMethods(): SdkMethod[] {
  const octokit = new Octokit();
  return Object.entries(octokit.rest).flatMap(([namespace, methods]) =>
    Object.entries(methods as Record<string, { endpoint: { DEFAULTS: { method: string; url: string } } }>).map(([name, method]) => ({
      name: `${namespace}.${name}`,
      method: method.endpoint.DEFAULTS.method,
      path: method.endpoint.DEFAULTS.url,
    })),
  );
}

/** The API methods of each SDK, by the name of the package. */
export async function sdkMethods(): Promise<{ openai: SdkMethod[]; stripe: SdkMethod[]; octokit: SdkMethod[] }> {
  return { openai: await openaiMethods(), stripe: await stripeMethods(), octokit: octokitMethods() };
}
