import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import yaml from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURES } from "../helpers.js";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * OpenAPI 3.2 documents from the wild (test/fixtures/README.md says where each comes from): Scalar's Galaxy, the
 * learn site's examples and the specification's own. Generated, type-checked, and their 3.2 operations run
 * between the generated client and router over 127.0.0.1. Galaxy's types: galaxy-3.2.types.ts.
 */
let group: BuiltGroup;
const spec = (path: string) => join(FIXTURES, path);

beforeAll(async () => {
  group = await buildGroup("wild-3.2", [
    { name: "galaxy-3.2", spec: spec("scalar-galaxy-3.2/galaxy-3.2.yaml") },
    { name: "learn-tags", spec: spec("oai-learn-3.2/3.2-tags-example.yaml") },
    { name: "learn-query", spec: spec("oai-learn-3.2/3.2-query-example.yaml") },
    { name: "spec-examples", spec: spec("oas-3.2-spec/examples.yaml") },
    { name: "spec-self", spec: spec("oas-3.2-spec/self/openapi.yaml") },
  ]);
}, 300_000);

/** Serves a router on 127.0.0.1 for the duration of `use`. */
async function serving<T>(router: { fetch(request: Request): Promise<Response> }, toNodeListener: (router: unknown) => any, use: (origin: string) => Promise<T>): Promise<T> {
  const server: Server = createServer(toNodeListener(router));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe("OpenAPI 3.2 documents from the wild", () => {
  it("type-check under tsc --strict, Galaxy with its assertions", () => {
    expect(group.tsc.output).toBe("");
    expect(group.stderr["learn-query"]).toBe("");
  });

  it("Galaxy: QUERY, a JSON querystring, COPY and the planet stream between the generated client and router", async () => {
    const { createClient, createRouter, toNodeListener } = await importGenerated(group, "galaxy-3.2");
    const mars = { id: 4, name: "Mars", type: "terrestrial" };
    const seen: unknown[] = [];
    const router = createRouter(
      {
        queryPlanets: ({ body }: any) => (seen.push(["QUERY", body]), { status: 200, body: { data: [mars], meta: { total: 1 } } }),
        searchPlanets: ({ querystring }: any) => (seen.push(["querystring", querystring]), { status: 200, body: { data: [], meta: { total: 0 } } }),
        copyPlanet: ({ path, headers }: any) => (seen.push(["COPY", path.planetId, headers.Destination]), { status: 201, body: { ...mars, id: 5 } }),
        streamPlanetEvents: () => ({
          status: 200,
          stream: (async function* () {
            yield { event: "created", planet: mars };
            yield { event: "exploded", planet: mars, note: { lang: "en", value: "Boom" } };
          })(),
        }),
      },
      { authenticate: () => ({ user: "u" }), validateResponses: true },
    );
    await serving(router, toNodeListener, async (origin) => {
      const client = createClient({ baseUrl: origin, bearerAuth: "t", maxRetries: 0 });
      expect(await client.queryPlanets({ body: { name: "Ma", type: ["terrestrial"] } })).toEqual({ data: [mars], meta: { total: 1 } });
      await client.searchPlanets({ querystring: { sort: "-habitabilityIndex", minHabitabilityIndex: 0.5 } });
      expect(await client.copyPlanet({ path: { planetId: 4 }, headers: { Destination: "/planets/5" } })).toEqual({ ...mars, id: 5 });
      const events: any[] = [];
      for await (const event of await client.streamPlanetEvents()) events.push(event);
      expect(events.map((event) => event.event)).toEqual(["created", "exploded"]);
      // The same stream in the two other framings the response declares, picked by Accept.
      const jsonl = await fetch(`${origin}/planets/events`, { headers: { accept: "application/jsonl" } });
      expect((await jsonl.text()).trim().split("\n").map((line) => JSON.parse(line).event)).toEqual(["created", "exploded"]);
      const seq = await fetch(`${origin}/planets/events`, { headers: { accept: "application/json-seq" } });
      expect((await seq.text()).split("\u001e").filter(Boolean).map((record) => JSON.parse(record).event)).toEqual(["created", "exploded"]);
      // A querystring that is not a PlanetQuery is refused.
      expect((await fetch(`${origin}/planets/search?${encodeURIComponent('{"type":["rocky"]}')}`)).status).toBe(400);
    });
    expect(seen).toEqual([
      ["QUERY", { name: "Ma", type: ["terrestrial"] }],
      ["querystring", { sort: "-habitabilityIndex", minHabitabilityIndex: 0.5 }],
      ["COPY", 4, "/planets/5"],
    ]);
  });

  it("Galaxy: the mock streams planet events valid for the item schema", async () => {
    const { createRouter, toNodeListener, createClient } = await importGenerated(group, "galaxy-3.2");
    await serving(createRouter({}, { mock: true }), toNodeListener, async (origin) => {
      const events: any[] = [];
      for await (const event of await createClient({ baseUrl: origin, maxRetries: 0 }).streamPlanetEvents()) events.push(event);
      expect(events.length).toBe(3);
      for (const event of events) {
        expect(["created", "updated", "deleted", "exploded"]).toContain(event.event);
        expect(event.planet).toMatchObject({ id: expect.any(Number), name: expect.any(String) });
      }
    });
  });

  it("Galaxy and the learn site: nested tags name each operation's place in the client docs", () => {
    const galaxy = readFileSync(join(group.out("galaxy-3.2"), "client.ts"), "utf8");
    expect(galaxy).toContain("Tags: Everything in the void › Worlds big and small; Partner-only operations (audience)");
    expect(galaxy).toContain("Tags: Real-time galaxy feeds; Experimental endpoints (badge)");
    // A security scheme 3.2 marks deprecated marks its client option so.
    expect(galaxy).toMatch(/The API key of security scheme `apiKeyQuery`[^]*?@deprecated The spec marks this security scheme deprecated\.\n\s*\*\/\n\s*apiKeyQuery\?:/);
    const learn = readFileSync(join(group.out("learn-tags"), "client.ts"), "utf8");
    expect(learn).toContain("Tags: Flights › International");
    expect(learn).toContain("Tags: Delays (badge)");
  });

  it("the learn site's QUERY example: the search body goes out with QUERY and comes back typed", async () => {
    const { createClient, createRouter, toNodeListener } = await importGenerated(group, "learn-query");
    const router = createRouter({ searchFlights: ({ body }: any) => ({ status: 200, body: { flights: [{ flightNumber: "DL30", origin: body.origin, destination: body.destination }] } }) });
    await serving(router, toNodeListener, async (origin) => {
      const client = createClient({ baseUrl: origin, maxRetries: 0 });
      const result = await client.searchFlights({ body: { origin: "ATL", destination: "LHR", departureDate: "2026-06-15", cabinClass: "business" } });
      expect(result).toEqual({ flights: [{ flightNumber: "DL30", origin: "ATL", destination: "LHR" }] });
      // The router validates QUERY bodies like any other: a missing departureDate is refused.
      await expect(client.searchFlights({ body: { origin: "ATL", destination: "LHR" } as any })).rejects.toMatchObject({ status: 400 });
    });
  });

  it("the specification's querystring examples: the client sends each dataValue as its serializedValue, the router reads it back", async () => {
    const { createClient, createRouter, toNodeListener } = await importGenerated(group, "spec-examples");
    const document = yaml.load(readFileSync(spec("oas-3.2-spec/examples.yaml"), "utf8")) as any;
    const received: string[] = [];
    const decoded: unknown[] = [];
    const handle = ({ querystring }: any) => (decoded.push(querystring), { status: 204 });
    const router = createRouter({ formQuerystring: handle, jsonQuerystring: handle, jsonpathQuerystring: handle });
    const listener = toNodeListener(router);
    await serving(router, () => (req: any, res: any) => (received.push(req.url.slice(req.url.indexOf("?") + 1)), listener(req, res)), async (origin) => {
      const client = createClient({ baseUrl: origin, maxRetries: 0 });
      const form = document.paths["/form"].get.parameters[0].examples.spacesAndPluses;
      const json = document.paths["/json"].get.parameters[0].examples.TwoNoFlag;
      const jsonpath = document.paths["/jsonpath"].get.parameters[0];
      await client.formQuerystring({ querystring: form.dataValue });
      await client.jsonQuerystring({ querystring: json.dataValue });
      await client.jsonpathQuerystring({ querystring: jsonpath.content["application/jsonpath"].example });
      // The form is the same pairs (the specification writes spaces as +, specforge as %20: both are the form's).
      expect([...new URLSearchParams(received[0])]).toEqual([...new URLSearchParams(form.serializedValue)]);
      expect(received.slice(1)).toEqual([json.serializedValue, jsonpath.examples.Selector.serializedValue]);
      // Each serializedValue, sent as it is, is read back as the example's data.
      for (const [path, example] of [["/form", form.serializedValue], ["/json", json.serializedValue], ["/jsonpath", jsonpath.examples.Selector.serializedValue]]) {
        expect((await fetch(`${origin}${path}?${example}`)).status).toBe(204);
      }
    });
    expect(decoded).toEqual([form(document), json(document), "$.a.b[1:1]", form(document), json(document), "$.a.b[1:1]"]);
    function form(doc: any) {
      return doc.paths["/form"].get.parameters[0].examples.spacesAndPluses.dataValue;
    }
    function json(doc: any) {
      return doc.paths["/json"].get.parameters[0].examples.TwoNoFlag.dataValue;
    }
  });

  it("the specification's sequential JSON: a log stream as JSON Lines, and a log excerpt (an array schema) item by item", async () => {
    const { createClient, createRouter, toNodeListener } = await importGenerated(group, "spec-examples");
    const entries = [
      { timestamp: "1985-04-12T23:20:50.52Z", level: 1, message: "Hi!" },
      { timestamp: "1985-04-12T23:20:51.37Z", level: 1, message: "Bye!" },
    ];
    const stream = () => ({ status: 200, stream: (async function* () { yield* entries; })() });
    await serving(createRouter({ streamLogs: stream, logExcerpt: stream }, { validateResponses: true }), toNodeListener, async (origin) => {
      const client = createClient({ baseUrl: origin, maxRetries: 0 });
      const logs: unknown[] = [];
      for await (const entry of await client.streamLogs()) logs.push(entry);
      const excerpt: unknown[] = [];
      for await (const entry of await client.logExcerpt()) excerpt.push(entry);
      expect([logs, excerpt]).toEqual([entries, entries]);
      const raw = await fetch(`${origin}/logs`, { headers: { accept: "application/x-ndjson" } });
      expect(raw.headers.get("content-type")).toBe("application/x-ndjson");
    });
  });

  it("the specification's $self example: the relative $ref resolves against $self to the other document's $self", () => {
    expect(group.stderr["spec-self"]).toMatch(/^specforge: warning: [^\n]*#\/paths\/~1foo\/get: the operation declares no responses/);
    const schema = readFileSync(join(group.out("spec-self"), "schema.ts"), "utf8");
    expect(schema).toMatch(/"application\/json": components\["schemas"\]\["foo"\];/);
    expect(schema).toMatch(/foo: \{\s*bar\?: components\["schemas"\]\["bar"\];\s*\};\s*bar: string;/);
  });
});
