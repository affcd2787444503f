import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { pathToFileURL } from "node:url";
import { serverRuntimeData } from "../../../src/emit/server-data.js";
import { serverValidatorsText } from "../../../src/emit/server-validators.js";
import { buildModel } from "../../../src/ir/build.js";
import { loadSpec } from "../../../src/load/index.js";
import { mockFromSchema, SchemaCompiler, type FastCheck, type GeneratedValidators, type RouteSpec, type Schema, type SchemaDocument, type ValidationIssue } from "../../../templates/server/index.js";
import { compileLinearPattern } from "../../../templates/server/pattern.js";
import { tempDir } from "../../helpers.js";

/**
 * The differential test of the generated validators (src/emit/server-validators.ts): for every request schema of a
 * spec, many valid and invalid instances (mock values of several variants, then each of them broken one place at a
 * time: a property dropped, a value of every other JSON type put in, an unknown key added, arrays shortened and
 * repeated) are validated by the closures alone and by the generated code. They must agree on valid or not, fill
 * the same defaults, and — through the fronted compiler the router uses — report exactly the same issues.
 */
export interface DifferentialResult {
  schemas: number;
  instances: number;
  valid: number;
  mismatches: string[];
}

const REPLACEMENTS: unknown[] = [null, "", "x", "2024-01-02T03:04:05Z", "6b1f1c52-8a1e-4f8e-9a55-0f3f2a3c4d5e", 0, -1, 1.5, 1e6, true, false, [], {}, [1, "a"], { a: 1 }];

export async function differential(specPath: string, options: { perSchema?: number; maxDepth?: number } = {}): Promise<DifferentialResult> {
  const model = buildModel(loadSpec(specPath), specPath);
  const data = serverRuntimeData(model);
  const superLinearPatterns = data.generated.superLinearPatterns ?? [];
  const file = join(tempDir("specforge-validators-"), "server-validators.mjs");
  writeFileSync(file, serverValidatorsText(data.document, data.routes, superLinearPatterns));
  const { requestValidators } = (await import(pathToFileURL(file).href)) as { requestValidators: GeneratedValidators };
  // As the router runs: the data as server.ts holds it.
  const document = JSON.parse(JSON.stringify(data.document)) as SchemaDocument;
  const routes = JSON.parse(JSON.stringify(data.routes)) as RouteSpec[];
  const settings = { superLinearPatterns, linearPatterns: compileLinearPattern, maxDepth: options.maxDepth };
  const slow = new SchemaCompiler(document, settings);
  const fronted = new SchemaCompiler(document, settings);
  const env = fronted.validatorEnv();
  const entries = requestValidators(env);
  const bySchema = new Map<object, FastCheck>();
  for (const [path, check] of entries) {
    let node: unknown = { routes, document };
    for (const key of path) node = (node as Record<string | number, unknown>)[key];
    bySchema.set(node as object, check);
  }
  fronted.useGenerated(bySchema);
  const result: DifferentialResult = { schemas: bySchema.size, instances: 0, valid: 0, mismatches: [] };
  const perSchema = options.perSchema ?? 80;
  for (const [path, check] of entries) {
    let schema: unknown = { routes, document };
    for (const key of path) schema = (schema as Record<string | number, unknown>)[key];
    const where = path.join("/");
    for (const instance of instancesOf(schema as Schema, document, perSchema)) {
      result.instances++;
      const text = JSON.stringify(instance);
      const copy = () => (text === undefined ? undefined : JSON.parse(text));
      const [a, b, c, e] = [copy(), copy(), copy(), copy()];
      const closures = slow.compile(schema as Schema, "request");
      const slowErrors: ValidationIssue[] = [];
      const slowValid = closures(a, ["body"], slowErrors);
      // (Called directly, the generated code needs its step budget set, as the router sets it per validation.)
      env.budget.left = Number.MAX_SAFE_INTEGER;
      const fastValid = check(b, 1, true);
      const probeSlow = closures(copy(), [], null);
      env.budget.left = Number.MAX_SAFE_INTEGER;
      const probeFast = check(e, 0, false);
      const frontedErrors: ValidationIssue[] = [];
      const frontedValid = fronted.compile(schema as Schema, "request")(c, ["body"], frontedErrors);
      if (slowValid) result.valid++;
      const problem =
        slowValid !== fastValid
          ? `closures say ${slowValid ? "valid" : `invalid (${JSON.stringify(slowErrors[0])})`}, generated code ${fastValid ? "valid" : "invalid"}`
          : probeSlow !== probeFast
            ? `probe: closures ${probeSlow}, generated ${probeFast}`
            : slowValid && !isDeepStrictEqual(a, b)
              ? `defaults differ: ${JSON.stringify(a)} / ${JSON.stringify(b)}`
              : frontedValid !== slowValid || !isDeepStrictEqual(frontedErrors, slowErrors)
                ? `issues differ: ${JSON.stringify(slowErrors.slice(0, 2))} / ${JSON.stringify(frontedErrors.slice(0, 2))}`
                : undefined;
      if (problem && result.mismatches.length < 20) result.mismatches.push(`${where}: ${text?.slice(0, 300)}: ${problem}`);
    }
  }
  return result;
}

/**
 * The three answers of `schemas` (request bodies of one document) for a value: the closures', the generated code's
 * (`server-validators.js`, through the router's fronting, and on its own) — what a test compares with an independent
 * validator. Each answer is valid or not.
 */
export async function enginesFor(document: SchemaDocument, schemas: readonly Schema[]): Promise<(value: unknown) => { closures: boolean; generated: boolean; fronted: boolean }[]> {
  const routes: RouteSpec[] = schemas.map((schema, i) => ({
    name: `s${i}`,
    method: "POST",
    path: `/s${i}`,
    secured: false,
    params: { path: [], query: [], header: [] },
    body: { required: true, content: { "application/json": { schema } } },
    responses: {},
    validationErrorStatus: 400,
  }));
  const file = join(tempDir("specforge-validators-"), "server-validators.mjs");
  writeFileSync(file, serverValidatorsText(document, routes, []));
  const { requestValidators } = (await import(pathToFileURL(file).href)) as { requestValidators: GeneratedValidators };
  const copy = JSON.parse(JSON.stringify({ routes, document })) as { routes: RouteSpec[]; document: SchemaDocument };
  const slow = new SchemaCompiler(copy.document);
  const fronted = new SchemaCompiler(copy.document);
  const env = fronted.validatorEnv();
  const entries = requestValidators(env);
  const schemaAt = (path: readonly (string | number)[]) => path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], copy) as Schema;
  fronted.useGenerated(new Map(entries.map(([path, check]) => [schemaAt(path) as object, check])));
  const bodies = copy.routes.map((route) => route.body!.content["application/json"]!.schema!);
  const fast = new Map(entries.map(([path, check]) => [schemaAt(path), check]));
  return (value) =>
    bodies.map((schema) => {
      const text = JSON.stringify(value);
      const fresh = () => JSON.parse(text) as unknown;
      env.budget.left = Number.MAX_SAFE_INTEGER;
      const check = fast.get(schema);
      return {
        closures: slow.compile(schema)(fresh(), [], []),
        generated: check === undefined ? true : check(fresh(), 0, true),
        fronted: fronted.compile(schema)(fresh(), [], []),
      };
    });
}

/** Deterministic instances: mock values, then each broken in one place at a time. */
export function instancesOf(schema: Schema, document: SchemaDocument, limit: number): unknown[] {
  const seeds: unknown[] = [];
  for (let variant = 0; variant < 4; variant++) {
    try {
      seeds.push(mockFromSchema(schema, document, { direction: "request", variant }));
    } catch {
      // a schema the mock cannot satisfy: the replacements still exercise it
    }
  }
  const out: unknown[] = [...seeds, ...REPLACEMENTS];
  for (const seed of seeds) {
    for (const path of pathsOf(seed, 0).slice(0, 40)) {
      out.push(edit(seed, path, undefined));
      for (const replacement of REPLACEMENTS) out.push(edit(seed, path, replacement));
      out.push(edit(seed, path, "__extra__"));
    }
  }
  // Spread the budget over the whole list rather than its start.
  if (out.length <= limit) return out;
  const step = out.length / limit;
  return Array.from({ length: limit }, (_, i) => out[Math.floor(i * step)]);
}

function pathsOf(value: unknown, depth: number, prefix: (string | number)[] = []): (string | number)[][] {
  if (depth > 6 || value === null || typeof value !== "object") return [];
  const out: (string | number)[][] = [];
  for (const key of Object.keys(value)) {
    const path = [...prefix, Array.isArray(value) ? Number(key) : key];
    out.push(path, ...pathsOf((value as Record<string, unknown>)[key], depth + 1, path));
  }
  return out;
}

/** A copy of `value` with the thing at `path` replaced (undefined: removed; "__extra__": an unknown key added to it). */
function edit(value: unknown, path: (string | number)[], replacement: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(value)) as Record<string | number, unknown>;
  let parent: Record<string | number, unknown> = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path.at(-1)!;
  if (replacement === "__extra__") {
    const target = parent[last];
    if (Array.isArray(target)) target.push(target[0]);
    else if (target !== null && typeof target === "object") (target as Record<string, unknown>).zz_unknown_key = 1;
    else parent[last] = [target];
  } else if (replacement === undefined) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1);
    else delete parent[last];
  } else parent[last] = replacement;
  return copy;
}
