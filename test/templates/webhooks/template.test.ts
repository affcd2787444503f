import { describe, expect, it } from "vitest";
import { createWebhookTools } from "../../../templates/webhooks/index.js";
import { checkPayloadTemplate, renderPayloadTemplate } from "./fixtures/webhooks.js";
import { ALL_SCHEMES } from "../../../src/emit/webhook-schemes.js";

const base = { project_name: "demo", entity_name: "team", event_type: "ADD_ARTIFACT_ALIAS", event_author: "ada" };

describe("renderPayloadTemplate: escaping inside JSON strings", () => {
  it.each([
    ["quotes", 'say "hi"'],
    ["backslashes", "C:\\path\\to\\file \\n not a newline"],
    ["newlines and tabs", "line1\nline2\r\n\ttabbed"],
    ["control characters", "nul\u0000 bell\u0007 esc\u001b del\u007f"],
    ["unicode", "café ☕ 日本語 🚀"],
    ["line/paragraph separators", "a\u2028b\u2029c"],
    ["a lone surrogate", "bad \ud800 half"],
    ["JSON-looking text", '"}, "injected": true, "x": {"'],
    ["placeholder-looking text", "${ACCESS_TOKEN} $MY_SECRET"],
  ])("%s round-trip through JSON.parse", (_label, value) => {
    const out = renderPayloadTemplate('{"text": "Project: ${project_name}!"}', { ...base, project_name: value }, { ACCESS_TOKEN: "t" });
    expect(JSON.parse(out)).toEqual({ text: `Project: ${value}!` });
  });

  it("writes U+2028/U+2029 as escapes (safe for JS-embedded JSON)", () => {
    const out = renderPayloadTemplate('{"t": "${project_name}"}', { project_name: "a\u2028b\u2029c" });
    expect(out).toBe('{"t": "a\\u2028b\\u2029c"}');
  });

  it("cannot break out of the string (injection)", () => {
    const evil = '", "admin": true, "x": "';
    const out = renderPayloadTemplate('{"name": "${project_name}", "admin": false}', { project_name: evil });
    expect(JSON.parse(out)).toEqual({ name: evil, admin: false });
  });

  it("numbers, booleans, objects inside strings use their text; null/missing are empty", () => {
    const out = renderPayloadTemplate(
      '{"a": "v=${artifact_version}", "m": "${artifact_metadata.acc}/${artifact_metadata.ok}/${artifact_metadata.obj}/${artifact_metadata.nil}", "x": "[${entity_name}]"}',
      { artifact_version: { id: "QXJ0", n: 1 }, artifact_metadata: { acc: 0.91, ok: true, obj: { k: "v\"" }, nil: null } },
    );
    expect(JSON.parse(out)).toEqual({ a: 'v={"id":"QXJ0","n":1}', m: '0.91/true/{"k":"v\\""}/', x: "[]" });
  });

  it("placeholders in keys are escaped too", () => {
    const out = renderPayloadTemplate('{"${project_name}": 1}', { project_name: 'k"ey' });
    expect(JSON.parse(out)).toEqual({ 'k"ey': 1 });
  });

  it("escape sequences in the template do not confuse string tracking", () => {
    const out = renderPayloadTemplate('{"a": "quote \\" then ${project_name}", "b": ${project_name}}', { project_name: "x\"y" });
    expect(JSON.parse(out)).toEqual({ a: 'quote " then x"y', b: 'x"y' });
  });
});

describe("renderPayloadTemplate: outside JSON strings", () => {
  it("strings become JSON strings; numbers, booleans, null, objects become JSON; missing becomes \"\"", () => {
    const out = renderPayloadTemplate(
      '{"p": ${project_name}, "v": ${artifact_version}, "acc": ${artifact_metadata.acc}, "ok": ${artifact_metadata.ok}, "nil": ${artifact_metadata.nil}, "meta": ${artifact_metadata}, "missing": ${event_author}, "tags": [${artifact_metadata.tags}]}',
      {
        project_name: 'de"mo\n',
        artifact_version: { id: "wandb-artifact://_id/QXJ0aWZhY3Q6NTE3ODg5ODg3" },
        artifact_metadata: { acc: 0.5, ok: false, nil: null, tags: ["a", "b"] },
      },
    );
    expect(JSON.parse(out)).toEqual({
      p: 'de"mo\n',
      v: { id: "wandb-artifact://_id/QXJ0aWZhY3Q6NTE3ODg5ODg3" },
      acc: 0.5,
      ok: false,
      nil: null,
      meta: { acc: 0.5, ok: false, nil: null, tags: ["a", "b"] },
      missing: "",
      tags: [["a", "b"]],
    });
  });

  it("works for non-JSON text too (values are JSON-quoted outside strings)", () => {
    expect(renderPayloadTemplate("Deployed ${project_name}", { project_name: "x" })).toBe('Deployed "x"');
  });
});

describe("renderPayloadTemplate: variables", () => {
  it("the GitHub repository_dispatch template from the docs", () => {
    const template = `{
  "event_type": "BUILD_AND_DEPLOY",
  "client_payload": {
    "event_author": "\${event_author}",
    "artifact_version": "\${artifact_version}",
    "artifact_version_string": "\${artifact_version_string}",
    "artifact_collection_name": "\${artifact_collection_name}",
    "project_name": "\${project_name}",
    "entity_name": "\${entity_name}"
  }
}`;
    const out = renderPayloadTemplate(template, {
      ...base,
      artifact_version: "wandb-artifact://_id/QXJ0aWZhY3Q6NTE3ODg5ODg3",
      artifact_version_string: "team/model-registry/my-model:production",
      artifact_collection_name: "my-model",
    });
    expect(JSON.parse(out)).toEqual({
      event_type: "BUILD_AND_DEPLOY",
      client_payload: {
        event_author: "ada",
        artifact_version: "wandb-artifact://_id/QXJ0aWZhY3Q6NTE3ODg5ODg3",
        artifact_version_string: "team/model-registry/my-model:production",
        artifact_collection_name: "my-model",
        project_name: "demo",
        entity_name: "team",
      },
    });
    expect(checkPayloadTemplate(template)).toEqual({ ok: true, problems: [] });
  });

  it("${alias} only for alias events, ${tag} only for tag events (by variables.event_type)", () => {
    const t = '{"alias": "${alias}", "tag": "${tag}", "raw": ${alias}}';
    const vars = { alias: "prod", tag: "v1" };
    expect(JSON.parse(renderPayloadTemplate(t, { ...vars, event_type: "ADD_ARTIFACT_ALIAS" }))).toEqual({ alias: "prod", tag: "", raw: "prod" });
    expect(JSON.parse(renderPayloadTemplate(t, { ...vars, event_type: "UPDATE_ARTIFACT_ALIAS" }))).toEqual({ alias: "prod", tag: "", raw: "prod" });
    expect(JSON.parse(renderPayloadTemplate(t, { ...vars, event_type: "ADD_ARTIFACT_TAG" }))).toEqual({ alias: "", tag: "v1", raw: "" });
    expect(JSON.parse(renderPayloadTemplate(t, { ...vars, event_type: "LINK_ARTIFACT" }))).toEqual({ alias: "", tag: "", raw: "" });
    // Without an event_type there is nothing to restrict on: the given values are used.
    expect(JSON.parse(renderPayloadTemplate(t, vars))).toEqual({ alias: "prod", tag: "v1", raw: "prod" });
  });

  it("${event_type} renders the event type", () => {
    expect(renderPayloadTemplate('{"e":"${event_type}"}', { event_type: "LINK_ARTIFACT" })).toBe('{"e":"LINK_ARTIFACT"}');
  });

  it("${artifact_metadata.KEY}: top-level keys only; deeper paths render empty", () => {
    const meta = { accuracy: 0.97, "model.name": "resnet", nested: { depth: 2 } };
    const out = renderPayloadTemplate(
      '{"a": ${artifact_metadata.accuracy}, "n": ${artifact_metadata.nested}, "deep": "${artifact_metadata.nested.depth}", "missing": "${artifact_metadata.nope}", "proto": "${artifact_metadata.constructor}"}',
      { artifact_metadata: meta },
    );
    expect(JSON.parse(out)).toEqual({ a: 0.97, n: { depth: 2 }, deep: "", missing: "", proto: "" });
  });

  it("secrets: ${ACCESS_TOKEN}, ${MY_SECRET} and $MY_SECRET", () => {
    const secrets = { ACCESS_TOKEN: "tok_123", MY_SECRET: 'p@ss"word\\' };
    const out = renderPayloadTemplate(
      '{"auth": "Bearer ${ACCESS_TOKEN}", "s1": "${MY_SECRET}", "s2": "$MY_SECRET", "s3": $MY_SECRET, "t": $ACCESS_TOKEN, "s4": "pre-$MY_SECRET-post"}',
      base,
      secrets,
    );
    expect(JSON.parse(out)).toEqual({
      auth: "Bearer tok_123",
      s1: 'p@ss"word\\',
      s2: 'p@ss"word\\',
      s3: 'p@ss"word\\',
      t: "tok_123",
      s4: 'pre-p@ss"word\\-post',
    });
  });

  it("a bare $word that is not a known secret stays literal; a missing ${SECRET} renders empty", () => {
    const out = renderPayloadTemplate('{"price": "$5 or $USD", "home": "$HOME", "s": "${MISSING_SECRET}", "a": "${ACCESS_TOKEN}"}', base, {});
    expect(JSON.parse(out)).toEqual({ price: "$5 or $USD", home: "$HOME", s: "", a: "" });
  });

  it("missing and unknown variables render empty", () => {
    const out = renderPayloadTemplate('{"a": "${entity_name}", "b": "${not_declared}", "c": ${not_declared}, "d": "${}"}', {});
    expect(JSON.parse(out)).toEqual({ a: "", b: "", c: "", d: "" });
  });

  it("does not read prototype properties", () => {
    const out = renderPayloadTemplate('{"a": "${toString}", "b": "$constructor"}', {}, {});
    expect(JSON.parse(out)).toEqual({ a: "", b: "$constructor" });
  });
});

describe("checkPayloadTemplate", () => {
  it("accepts a valid template with every kind of variable", () => {
    const t = '{"text": "${event_author} aliased ${alias} in ${project_name}", "acc": ${artifact_metadata.acc}, "token": "${ACCESS_TOKEN}", "s": "$MY_SECRET", "t": ${MY_SECRET}, "price": "$5"}';
    expect(checkPayloadTemplate(t)).toEqual({ ok: true, problems: [] });
  });

  it("reports unknown variables with offset, line and column", () => {
    const t = '{\n  "a": "${project_nmae}",\n  "b": ${whatever.x}\n}';
    const result = checkPayloadTemplate(t);
    expect(result.ok).toBe(false);
    expect(result.problems).toEqual([
      expect.objectContaining({ kind: "unknown_variable", variable: "project_nmae", offset: t.indexOf("${project_nmae}"), line: 2, column: 9, length: 15 }),
      expect.objectContaining({ kind: "unknown_variable", variable: "whatever.x", offset: t.indexOf("${whatever.x}"), line: 3, column: 8 }),
    ]);
    expect(result.problems[0]!.message).toContain("project_nmae");
  });

  it("reports a nested artifact_metadata path", () => {
    const t = '{"d": "${artifact_metadata.a.b}"}';
    const [problem] = checkPayloadTemplate(t).problems;
    expect(problem).toMatchObject({ kind: "unknown_variable", variable: "artifact_metadata.a.b", offset: 7 });
    expect(problem!.message).toMatch(/top-level/);
  });

  it("secret names: UPPER_SNAKE_CASE by default, or exactly the given secretNames", () => {
    const t = '{"a": "${MY_SECRET}", "b": "${OTHER}"}';
    expect(checkPayloadTemplate(t).ok).toBe(true);
    const result = checkPayloadTemplate(t, { secretNames: ["MY_SECRET"] });
    expect(result.problems.map((p) => p.variable)).toEqual(["OTHER"]);
    // Lower-case undeclared names are not secrets.
    expect(checkPayloadTemplate('{"a": "${my_secret}"}').problems.map((p) => p.kind)).toEqual(["unknown_variable"]);
  });

  it("reports invalid JSON at the template position", () => {
    const missingComma = '{"a": "${project_name}" "b": 1}';
    const [p1] = checkPayloadTemplate(missingComma).problems;
    expect(p1).toMatchObject({ kind: "invalid_json", offset: missingComma.indexOf('"b"') });

    const trailingComma = '{\n  "a": ${project_name},\n}';
    const [p2] = checkPayloadTemplate(trailingComma).problems;
    expect(p2).toMatchObject({ kind: "invalid_json", line: 3, column: 1, offset: trailingComma.lastIndexOf("}") });

    const rawNewline = '{"a": "line\nbreak"}';
    expect(checkPayloadTemplate(rawNewline).problems).toEqual([
      expect.objectContaining({ kind: "invalid_json", offset: rawNewline.indexOf("\n") }),
    ]);

    const unquotedText = '{"a": hello ${project_name}}';
    expect(checkPayloadTemplate(unquotedText).problems[0]).toMatchObject({ kind: "invalid_json", offset: unquotedText.indexOf("hello") });

    const afterPlaceholder = '{"a": ${project_name} ${entity_name}}';
    expect(checkPayloadTemplate(afterPlaceholder).problems[0]).toMatchObject({ kind: "invalid_json", offset: afterPlaceholder.indexOf("${entity_name}") });

    expect(checkPayloadTemplate("").problems[0]).toMatchObject({ kind: "invalid_json", offset: 0 });
    expect(checkPayloadTemplate('{"a": 1} trailing').problems[0]).toMatchObject({ kind: "invalid_json", offset: 9 });
    expect(checkPayloadTemplate('{"a": "unterminated').problems[0]).toMatchObject({ kind: "invalid_json", offset: 19 });
    expect(checkPayloadTemplate('{"a": 01}').problems[0]).toMatchObject({ kind: "invalid_json" });
    expect(checkPayloadTemplate('{"a": "\\x"}').problems[0]).toMatchObject({ kind: "invalid_json", offset: 7 });
  });

  it("a bare $word outside a string that is not a secret is invalid JSON, not an unknown variable", () => {
    const problems = checkPayloadTemplate('{"a": $lower}').problems;
    expect(problems.map((p) => p.kind)).toEqual(["invalid_json"]);
    expect(problems[0]!.offset).toBe(6);
  });

  it("reports unterminated placeholders", () => {
    const t = '{"a": "${project_name", "b": "${x}"}';
    const problems = checkPayloadTemplate(t).problems;
    expect(problems[0]).toMatchObject({ kind: "unknown_variable", offset: 7, variable: "project_name" });
    expect(problems[0]!.message).toMatch(/unterminated/);
  });

  it("agrees with JSON.parse on a batch of templates", () => {
    const samples = [
      "{}",
      "[]",
      '{"a":[1,2,{"b":null}],"c":true}',
      '{"a":1,}',
      "[1 2]",
      '{"a" 1}',
      '"just a string"',
      "  42  ",
      "-",
      "1.",
      "1e5",
      '{"a":"\\u12"}',
      '{"a":"\\u1234"}',
      "[[[[]]]]",
      "[[[[]]]",
      "nul",
      '{"a":tru}',
    ];
    for (const s of samples) {
      let valid = true;
      try {
        JSON.parse(s);
      } catch {
        valid = false;
      }
      expect([s, checkPayloadTemplate(s).ok]).toEqual([s, valid]);
    }
  });
});

describe("templates for specs without x-payload-variables", () => {
  const tools = createWebhookTools<{ A: unknown }>({ events: ["A"] }, ALL_SCHEMES);

  it("renders any ${name} from variables (then secrets), ${name.KEY} top-level, $NAME from secrets when present", () => {
    const out = tools.renderTemplate(
      '{"a": "${anything}", "b": ${obj.k}, "c": "${SECRET}", "d": "$SECRET", "e": "$NOPE"}',
      { anything: 'x"', obj: { k: [1] } },
      { SECRET: "s" },
    );
    expect(JSON.parse(out)).toEqual({ a: 'x"', b: [1], c: "s", d: "s", e: "$NOPE" });
  });

  it("reports only JSON problems (variables cannot be known)", () => {
    expect(tools.checkTemplate('{"a": "${whatever}", "b": ${x}}')).toEqual({ ok: true, problems: [] });
    expect(tools.checkTemplate('{"a": ${x} ]').ok).toBe(false);
  });
});
