/**
 * What the parameter decoders prepare once per route instead of once per request must still give every request its
 * own answer: the undecoded path captures for the styles that split on delimiters (built only for routes that
 * declare such a parameter), and the location stack each parameter's coercion and validation descend with (shared
 * between requests, copied into every issue).
 */
import { describe, expect, it } from "vitest";
import { createRouterRuntime, type RouteSpec, type RouterError, type ValidationIssue } from "../../../templates/server/index.js";

const BASE = "http://api.test";
const responses = { "200": { content: { "application/json": { schema: {} } } } };

function echoRouter(spec: RouteSpec, errorBody?: (error: RouterError) => undefined) {
  return createRouterRuntime({}, [spec], { op: (ctx: { path: unknown; query: unknown }) => ({ status: 200, body: { path: ctx.path, query: ctx.query } }) }, errorBody ? { errorBody } : {});
}

describe("path parameters split on their delimiters", () => {
  const spec: RouteSpec = {
    name: "op",
    method: "GET",
    path: "/items/{plain}/{labels}/{matrix}",
    secured: false,
    params: {
      path: [
        { name: "plain", required: true, schema: { type: "string" } },
        { name: "labels", required: true, style: "label", explode: true, schema: { type: "array", items: { type: "string" } } },
        { name: "matrix", required: true, style: "matrix", explode: false, schema: { type: "array", items: { type: "string" } } },
      ],
      query: [],
      header: [],
    },
    responses,
    validationErrorStatus: 422,
  };

  it("are split before percent-decoding, so an encoded delimiter stays inside a value", async () => {
    const res = await echoRouter(spec).fetch(new Request(`${BASE}/items/a%2Cb/.x%2Ey.z/;matrix=p%2Cq,r`));
    expect(res.status).toBe(200);
    // From the decoded text instead, "x.y" would be two labels and "p,q" two items.
    expect((await res.json()).path).toEqual({ plain: "a,b", labels: ["x.y", "z"], matrix: ["p,q", "r"] });
  });

  it("a route with only simple scalar path parameters still gets them decoded", async () => {
    const simple: RouteSpec = { ...spec, path: "/items/{plain}", params: { path: [spec.params.path[0]!], query: [], header: [] } };
    const res = await echoRouter(simple).fetch(new Request(`${BASE}/items/a%2Cb%2Ec`));
    expect((await res.json()).path).toEqual({ plain: "a,b.c" });
  });
});

describe("the location of a parameter's issues", () => {
  const spec: RouteSpec = {
    name: "op",
    method: "GET",
    path: "/list",
    secured: false,
    params: {
      path: [],
      query: [
        { name: "limit", required: false, schema: { type: "integer", minimum: 1 } },
        { name: "ids", required: false, style: "form", explode: false, schema: { type: "array", items: { type: "integer" }, maxItems: 2 } },
      ],
      header: [],
    },
    responses,
    validationErrorStatus: 422,
  };

  it("is each issue's own array, unchanged by later requests", async () => {
    const seen: ValidationIssue[][] = [];
    const router = echoRouter(spec, (error) => {
      seen.push(error.issues ?? []);
      return undefined;
    });
    for (const query of ["limit=x&ids=1,y", "limit=0&ids=1,2,3", "limit=x&ids=1,y"]) {
      expect((await router.fetch(new Request(`${BASE}/list?${query}`))).status).toBe(422);
    }
    const locs = seen.map((issues) => issues.map((issue) => issue.loc));
    expect(locs).toEqual([
      [["query", "limit"], ["query", "ids", 1]],
      [["query", "limit"], ["query", "ids"]],
      [["query", "limit"], ["query", "ids", 1]],
    ]);
    // No two issues share a location array (a later request, or a handler of `errorBody`, cannot change another's).
    const arrays = locs.flat();
    expect(new Set(arrays).size).toBe(arrays.length);
    (seen[0]![0]!.loc as unknown[]).push("changed");
    expect((await router.fetch(new Request(`${BASE}/list?limit=0`))).status).toBe(422);
    expect(seen.at(-1)!.map((issue) => issue.loc)).toEqual([["query", "limit"]]);
  });
});
