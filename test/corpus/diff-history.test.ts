/**
 * `specforge diff` on real consecutive versions of public specs: GitHub's REST and webhooks descriptions as Octokit
 * publishes them on the npm registry (MIT). The newest versions are in ../shared/corpus (see its MANIFEST); the older
 * ones are fetched with `npm pack` at test time (checked against the registry's SHA-1) into
 * node_modules/.cache/specforge-diff-history/, so `npm test` stays offline and the repository small.
 *
 * What each pair's changes are was checked by hand against the two JSON files (jq / node, not specforge), noted at
 * each test.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { diffDocuments } from "../../src/diff/compare.js";
import type { Change, DiffResult } from "../../src/diff/model.js";
import { loadSpec } from "../../src/load/index.js";
import { ROOT } from "../helpers.js";
import { CORPUS } from "./shared.js";

const CACHE = join(ROOT, "node_modules", ".cache", "specforge-diff-history");

/** Pinned package versions, their registry SHA-1 (`npm view <pkg>@<v> dist.shasum`) and the files used from them. */
const PACKAGES = [
  { spec: "@octokit/openapi@23.0.0", shasum: "1194fcf99f42c5757ccb6cf9abd88bf07700c008", files: ["api.github.com.json", "ghes-3.18.json", "ghes-3.19.json"] },
  { spec: "@octokit/openapi@23.0.1", shasum: "95acea50f406aeb482b70f648174c44edbfaa910", files: ["api.github.com.json"] },
  { spec: "@octokit/openapi-webhooks@12.0.3", shasum: "f5105be874fe0900ed689a09130dcd3c7bb01282", files: ["api.github.com.json"] },
];

const folderOf = (spec: string) => join(CACHE, spec.replace("/", "+"));
const file = (spec: string, name: string) => join(folderOf(spec), "package", "generated", name);

function fetchPackage({ spec, shasum, files }: (typeof PACKAGES)[number]): void {
  if (files.every((name) => existsSync(file(spec, name)))) return;
  const dir = folderOf(spec);
  mkdirSync(dir, { recursive: true });
  const [packed] = JSON.parse(execFileSync("npm", ["pack", spec, "--json", "--pack-destination", dir], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 300_000 })) as { filename: string }[];
  const tarball = join(dir, packed!.filename);
  try {
    expect(createHash("sha1").update(readFileSync(tarball)).digest("hex"), `${spec} tarball`).toBe(shasum);
    execFileSync("tar", ["-xzf", tarball, "-C", dir, ...files.map((name) => `package/generated/${name}`)], { timeout: 300_000 });
  } finally {
    rmSync(tarball, { force: true });
  }
}

const loaded = new Map<string, Record<string, unknown>>();
const doc = (path: string) => {
  if (!loaded.has(path)) loaded.set(path, loadSpec(path).document);
  return loaded.get(path)!;
};
const diff = (a: string, b: string): DiffResult => diffDocuments(doc(a), doc(b));
const breaks = (c: Change) => (c.breaking.client && c.breaking.server ? "both" : c.breaking.client ? "client" : c.breaking.server ? "server" : "none");
const find = (result: DiffResult, rule: Change["rule"], subject: string, message?: string) =>
  result.changes.filter((c) => c.rule === rule && c.subject === subject && (message === undefined || c.message.includes(message))).map((c) => ({ breaks: breaks(c), message: c.message, direction: c.direction }));
const countByRule = (result: DiffResult) => Object.fromEntries([...new Set(result.changes.map((c) => c.rule))].sort().map((rule) => [rule, result.changes.filter((c) => c.rule === rule).length]));

const REST_23_0_0 = () => file("@octokit/openapi@23.0.0", "api.github.com.json");
const REST_23_0_1 = () => file("@octokit/openapi@23.0.1", "api.github.com.json");
const REST_23_0_2 = join(CORPUS, "github-api.github.com-3.0.json"); // @octokit/openapi@23.0.2
const WEBHOOKS_12_0_3 = () => file("@octokit/openapi-webhooks@12.0.3", "api.github.com.json");
const WEBHOOKS_12_1_0 = join(CORPUS, "github-webhooks-3.1.json"); // @octokit/openapi-webhooks@12.1.0

beforeAll(() => {
  for (const pkg of PACKAGES) fetchPackage(pkg);
}, 900_000);

describe("GitHub REST, @octokit/openapi 23.0.0 → 23.0.1 → 23.0.2 (13 MB each)", () => {
  // By hand: the pretty-printed JSON of 23.0.0 and 23.0.1 differ in info.version and in one block: 23.0.0's
  // `GET /repos/{owner}/{repo}/contents/{path}` had an optional `requestBody` with only `examples` (a documentation
  // slip: GET has no body), 23.0.1 has none.
  it("23.0.0 → 23.0.1: the GET contents request body that was removed, nothing else", () => {
    const result = diff(REST_23_0_0(), REST_23_0_1());
    expect(result.versions).toEqual({ old: "23.0.0", new: "23.0.1" });
    expect(result.changes).toEqual([
      {
        rule: "request-body-removed",
        breaking: { client: true, server: false },
        subject: "GET /repos/{owner}/{repo}/contents/{path} request body",
        message: "request body removed",
        direction: "request",
        old: "/paths/~1repos~1{owner}~1{repo}~1contents~1{path}/get/requestBody",
        new: "/paths/~1repos~1{owner}~1{repo}~1contents~1{path}/get",
        operations: ["GET /repos/{owner}/{repo}/contents/{path}"],
      },
    ]);
  });

  // By hand: 23.0.1 and 23.0.2 differ only in info.version.
  it("23.0.1 → 23.0.2: no API changes (only info.version differs)", () => {
    const result = diff(REST_23_0_1(), REST_23_0_2);
    expect(result.versions).toEqual({ old: "23.0.1", new: "23.0.2" });
    expect(result.changes).toEqual([]);
  });
});

describe("GitHub Enterprise Server 3.18 → 3.19 (@octokit/openapi@23.0.0's ghes-3.18.json and ghes-3.19.json)", () => {
  const pair = () => diff(file("@octokit/openapi@23.0.0", "ghes-3.18.json"), file("@octokit/openapi@23.0.0", "ghes-3.19.json"));

  // By hand: the method+path sets differ by 59 operations added and none removed; `x-webhooks` gained the four
  // issue-dependencies-* events and lost none.
  it("59 operations and 4 webhooks added, none removed", () => {
    const result = pair();
    expect(result.changes.filter((c) => c.rule === "operation-added")).toHaveLength(59);
    expect(result.changes.filter((c) => c.rule === "operation-added").every((c) => breaks(c) === "server")).toBe(true);
    expect(result.changes.filter((c) => c.rule === "operation-removed" || c.rule === "webhook-removed")).toEqual([]);
    expect(result.changes.filter((c) => c.rule === "webhook-added").map((c) => c.subject)).toEqual([
      "webhook issue-dependencies-blocked-by-added",
      "webhook issue-dependencies-blocked-by-removed",
      "webhook issue-dependencies-blocking-added",
      "webhook issue-dependencies-blocking-removed",
    ]);
  });

  // By hand: the request body's selected_repository_ids array gained `minItems: 1, maxItems: 250` (3.18 had no
  // bounds): requests that were valid (an empty list, 300 ids) are not any more.
  it("the detach request's repository list got bounds: breaking for clients", () => {
    const subject = "DELETE /orgs/{org}/code-security/configurations/detach request body (application/json).selected_repository_ids";
    expect(find(pair(), "constraint-changed", subject)).toEqual([
      { breaks: "client", message: "maxItems 250 added", direction: "request" },
      { breaks: "client", message: "minItems 1 added", direction: "request" },
    ]);
  });

  // By hand: `sha_pinning_required` is a new optional boolean in the PUT actions-permissions bodies and in the
  // matching response schemas.
  it("new optional fields are compatible, in requests and in responses", () => {
    const result = pair();
    expect(find(result, "property-added", "PUT /orgs/{org}/actions/permissions request body (application/json).sha_pinning_required")).toEqual([{ breaks: "none", message: "optional property added", direction: "request" }]);
    expect(find(result, "property-added", "actions-organization-permissions.sha_pinning_required")).toEqual([{ breaks: "none", message: "optional property added", direction: "response" }]);
  });

  // By hand: 3.18 referenced code-scanning-default-setup-options (`type: object, nullable: true`) directly; 3.19
  // writes `allOf: [that $ref, {type: object, properties: {allow_advanced}}]`, and the second member does not allow
  // null, so null is no longer valid in these PATCH requests: a real narrowing (probably unintended by GitHub).
  it("an allOf wrapper made a nullable request field non-nullable: breaking for clients", () => {
    const result = pair();
    for (const scope of ["/enterprises/{enterprise}", "/orgs/{org}"]) {
      const subject = `PATCH ${scope}/code-security/configurations/{configuration_id} request body (application/json).code_scanning_default_setup_options`;
      expect(find(result, "type-changed", subject)).toEqual([{ breaks: "client", message: "is no longer nullable", direction: "request" }]);
    }
  });

  // By hand: the 34 property-added are all optional (listed and spot-checked: app-permissions gained
  // enterprise_organization_installations, code-security-configuration gained code_scanning_options, …).
  it("what the whole report holds (reviewed)", () => {
    expect(countByRule(pair())).toEqual({
      "constraint-changed": 2,
      "operation-added": 59,
      "property-added": 34,
      "type-changed": 2,
      "webhook-added": 4,
    });
  });
});

describe("GitHub webhooks, @octokit/openapi-webhooks 12.0.3 → 12.1.0 (OpenAPI 3.1, webhooks only)", () => {
  const pair = () => diff(WEBHOOKS_12_0_3(), WEBHOOKS_12_1_0);

  // By hand: `webhooks` gained issue-dependencies-{blocked-by,blocking}-{added,removed} and
  // secret-scanning-alert-{assigned,unassigned}; none was removed.
  it("6 webhooks added (compatible: receivers subscribe to events), none removed", () => {
    const result = pair();
    expect(result.changes.filter((c) => c.rule === "webhook-added").map((c) => [c.subject, breaks(c)])).toEqual(
      ["issue-dependencies-blocked-by-added", "issue-dependencies-blocked-by-removed", "issue-dependencies-blocking-added", "issue-dependencies-blocking-removed", "secret-scanning-alert-assigned", "secret-scanning-alert-unassigned"].map((name) => [`webhook ${name}`, "none"]),
    );
    expect(result.changes.filter((c) => c.rule === "webhook-removed")).toEqual([]);
  });

  // By hand, in components.schemas: issue.state_reason's enum gained "duplicate"; issue.required lost
  // "author_association"; repository-rule's oneOf gained repository-rule-copilot-code-review;
  // repository-rule-max-file-path-length's maximum went from 256 to 32767. Payloads flow to receivers, so each of
  // these lets a receiver get something its code never saw: breaking for clients.
  it("payloads that may now carry new values break receivers", () => {
    const result = pair();
    expect(find(result, "enum-values-added", "issue.state_reason")).toEqual([{ breaks: "client", message: 'enum value "duplicate" added', direction: "response" }]);
    expect(find(result, "property-required", "issue.author_association")).toEqual([{ breaks: "client", message: "became optional", direction: "response" }]);
    expect(find(result, "variant-added", "repository-rule (oneOf 21)")).toEqual([{ breaks: "client", message: "oneOf variant repository-rule-copilot-code-review added", direction: "response" }]);
    expect(find(result, "constraint-changed", "repository-rule-max-file-path-length.parameters.max_file_path_length")).toEqual([{ breaks: "client", message: "maximum changed from 256 to 32767", direction: "response" }]);
  });

  // By hand: team-simple.required gained "type" (an enum of enterprise/organization); the code-scanning-alert-reopened
  // payload's `alert` went from `type: [object, null]` to `type: object`. Receivers lose nothing; whoever sends these
  // payloads must now always include `type` and never send a null alert: breaking for servers only.
  it("payloads that must now always carry more break senders, not receivers", () => {
    const result = pair();
    expect(find(result, "property-added", "team-simple.type")).toEqual([{ breaks: "server", message: "required property added", direction: "response" }]);
    expect(find(result, "type-changed", "webhook-code-scanning-alert-reopened.alert")).toEqual([{ breaks: "server", message: "is no longer nullable", direction: "response" }]);
  });

  it("every change names the webhooks it affects", () => {
    for (const change of pair().changes) {
      expect(change.operations.length, `${change.subject}: ${change.message}`).toBeGreaterThan(0);
      expect(change.operations.every((op) => op.startsWith("webhook ")), change.subject).toBe(true);
    }
  });
});
