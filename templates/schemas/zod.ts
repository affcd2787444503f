/**
 * What the zod schemas of the `schemas` output (`schemas: { library: "zod" }`) use besides zod: the refinements that
 * check a keyword zod has no method for pass on the issues of the schema they run, located below the value refined.
 * Typed structurally, so this module imports no zod (zod is the project's).
 */

/** A zod schema as the refinements use it. */
export interface SafeParser {
  safeParse(value: unknown): { success: boolean; error?: { issues: readonly { message: string; path: readonly PropertyKey[] }[] } | undefined };
}

/** The context of a zod `superRefine`. */
export interface RefinementContext {
  addIssue(issue: { code: "custom"; message: string; path?: PropertyKey[]; input?: unknown }): void;
}

/** Checks `value` with `schema` and adds its issues to `ctx`, each below `path` (relative to the value refined). */
export function forward(schema: SafeParser, value: unknown, ctx: RefinementContext, path: readonly PropertyKey[] = []): void {
  const result = schema.safeParse(value);
  if (result.success || !result.error) return;
  for (const issue of result.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: [...path, ...issue.path], input: value });
}

/** JSON with object keys sorted, so equal JSON values have equal texts (`enum`, `const` and `uniqueItems` compare them). */
export { canonicalJson as canonical } from "../server/json.js";
