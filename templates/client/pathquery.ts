/**
 * Paths that carry a query of their own (OpenAI's `/responses?beta=true`), for a spec that has one: the request
 * engine sends that query before the call's query parameters.
 */
import type { RuntimeFeatures } from "./runtime.js";
import { pair } from "./values.js";

/** Paths with a query, for `createRuntime`. */
export const pathQueryFeature: RuntimeFeatures = { splitPath };

/** The path's template (up to `?`) and its query, each pair percent-encoded as query parameters are (`""`: none). */
export function splitPath(path: string): [template: string, query: string] {
  const at = path.indexOf("?");
  if (at < 0) return [path, ""];
  return [path.slice(0, at), [...new URLSearchParams(path.slice(at + 1))].map(([name, value]) => pair(name, value)).join("&")];
}
