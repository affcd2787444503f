import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { buildModel } from "../../src/ir/build.js";
import type { ApiModel, MediaType } from "../../src/ir/model.js";
import { loadSpec } from "../../src/load/index.js";
import { mockFromSchema, type MockIssue } from "../../templates/server/mock.js";
import type { Schema, SchemaDocument } from "../../templates/server/schema.js";
import { SchemaCompiler } from "../../templates/server/validate.js";
import { schemaJudge } from "../ajv-judge.js";
import { corpusDocuments, wildFixtures } from "./corpus.js";
import { writeReportSection } from "./report.js";

/**
 * Every mock value specforge makes from the corpus validates against its schema, as an independent validator reads
 * it: Ajv (JSON Schema 2020-12) with ajv-formats, over the document written as 2020-12 says what OpenAPI says
 * (test/ajv-judge.ts). The values are the ones the router's mock mode, `specforge mock` and the MSW handlers answer
 * with (every response of every operation, each media type with a schema, variants 0 to 2, as a mock stream's items
 * are), and the ones the round trip sends (request bodies, parameters and webhook payloads, variants 0 and 1).
 *
 * The schemas no value can satisfy are listed below with the reason; for each of them the generator must have said
 * so (`onIssue`) — an invalid value it passes off as valid fails the test, and so does a listed schema that now gets
 * a valid value (the list stays true).
 */
const UNSATISFIABLE: Record<string, Record<string, string>> = {
  "github-api.github.com-3.0.json": {
    "reposCreateOrUpdateFileContents 409 application/json":
      "`oneOf: [basic-error, repository-rule-violation-error]`: both are objects of optional properties whose types agree, so every object matches both",
  },
  "digitalocean-multifile-3.0/DigitalOcean-public.v2.yaml": {
    "dropletActionsPostByTag body application/json":
      "`oneOf` of droplet actions where every snapshot action is also a plain action (`{type: enable_backups}` matches two branches); the discriminator's mapping, which would pick one, does not count",
  },
  "discord-3.1.json": {
    "getGuildJoinRequests query status": "`enum: []` beside `allOf`: no value is in an empty enum",
  },
  "fixture-heyapi-full/full-3.0.yaml": {
    "complexParams body application/json-patch+json": "`parameters: oneOf` of two object schemas that accept the same objects (hey-api's synthetic fixture)",
  },
  "fixture-heyapi-full/full-3.1.yaml": {
    "complexParams body application/json-patch+json": "`parameters: oneOf` of two object schemas that accept the same objects (hey-api's synthetic fixture)",
  },
};

interface Row {
  name: string;
  schemas: number;
  values: number;
  invalid: string[];
  ms: number;
}
const rows: Row[] = [];

afterAll(() => {
  const lines = [
    "## Mock values, judged by Ajv 2020-12 + ajv-formats",
    "",
    "| document | schemas | values | not valid (listed as unsatisfiable) | seconds |",
    "|---|---:|---:|---:|---:|",
    ...rows.map((r) => `| ${r.name} | ${r.schemas} | ${r.values} | ${r.invalid.length} | ${(r.ms / 1000).toFixed(1)} |`),
    "",
    "### Schemas no value can satisfy",
    "",
    ...Object.entries(UNSATISFIABLE).flatMap(([name, list]) => Object.entries(list).map(([where, why]) => `- ${name}, \`${where}\`: ${why}`)),
    "",
  ];
  writeReportSection("3-mocks", lines.join("\n"));
  console.log(lines.join("\n"));
});

/** Documents already judged, by the hash of their bundled content (the JSON twins of YAML specs are the same). */
const judged = new Set<string>();

describe("corpus: every mock value validates (Ajv 2020-12 + ajv-formats), or is reported and listed", () => {
  for (const doc of [...corpusDocuments(), ...wildFixtures()]) {
    it(doc.name, () => {
      const started = performance.now();
      const model = buildModel(loadSpec(doc.path), doc.name);
      const hash = createHash("sha256").update(JSON.stringify(model.document)).digest("hex");
      if (judged.has(hash)) return;
      judged.add(hash);
      const row: Row = { name: doc.name, schemas: 0, values: 0, invalid: [], ms: 0 };
      const unreported: string[] = [];
      for (const direction of ["response", "request"] as const) {
        const judge = schemaJudge(model.document, direction);
        const compiler = new SchemaCompiler(model.document as SchemaDocument);
        const seen = new Set<string>();
        for (const [where, schema] of schemasOf(model, direction)) {
          const key = JSON.stringify(schema);
          if (seen.has(key)) continue;
          seen.add(key);
          row.schemas++;
          for (let variant = 0; variant < (direction === "response" ? 3 : 2); variant++) {
            const issues: MockIssue[] = [];
            const value = mockFromSchema(schema, model.document as SchemaDocument, { compiler, direction, variant, onIssue: (issue) => issues.push(issue) });
            row.values++;
            const problem = judge.problemWith(schema, value);
            if (problem === undefined) continue;
            row.invalid.push(where);
            if (issues.length === 0) unreported.push(`${where} (variant ${variant}): ${problem} — ${JSON.stringify(value)?.slice(0, 300)}`);
            break;
          }
        }
      }
      row.ms = performance.now() - started;
      rows.push(row);
      expect(unreported, "invalid values the generator did not report").toEqual([]);
      expect(row.invalid.sort()).toEqual(Object.keys(UNSATISFIABLE[doc.name] ?? {}).sort());
    }, 900_000);
  }
});

/** Every schema the mocks are made from: responses', and requests' (bodies, parameters, webhook payloads). */
function* schemasOf(model: ApiModel, direction: "request" | "response"): Generator<[string, Schema]> {
  const media = function* (prefix: string, content: readonly MediaType[]): Generator<[string, Schema]> {
    for (const m of content) {
      const schema = m.sequence ? m.sequence.schema : m.schema;
      if (schema !== undefined) yield [`${prefix} ${m.type}`, schema as Schema];
    }
  };
  for (const op of model.operations) {
    if (direction === "response") for (const response of op.responses) yield* media(`${op.name} ${response.status}`, response.content);
    else {
      yield* media(`${op.name} body`, op.requestBody?.content ?? []);
      for (const param of op.parameters) yield [`${op.name} ${param.in} ${param.name}`, param.schema as Schema];
    }
  }
  if (direction === "request") for (const webhook of model.webhooks) yield* media(`${webhook.name} body`, webhook.requestBody?.content ?? []);
}
