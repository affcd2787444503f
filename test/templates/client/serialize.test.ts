import { describe, expect, test } from "vitest";
import {
  isJsonMediaType,
  serializeBody,
  serializeCookies,
  serializeHeaders,
  serializePath,
  serializeQuery,
} from "../../../templates/client/serialize.js";
import type { ParamSpec } from "../../../templates/client/types.js";

const one = (spec: ParamSpec) => new Map([[spec.name, spec]]);
const array = ["blue", "black", "brown"];
const object = { R: 100, G: 200, B: 150 };

// The examples of https://spec.openapis.org/oas/v3.1.1.html#style-examples
describe("path parameters", () => {
  test.each<[string, Omit<ParamSpec, "name">, unknown, string]>([
    ["simple", {}, "blue", "blue"],
    ["simple array", {}, array, "blue,black,brown"],
    ["simple object", {}, object, "R,100,G,200,B,150"],
    ["simple exploded object", { explode: true }, object, "R=100,G=200,B=150"],
    ["label", { style: "label" }, "blue", ".blue"],
    ["label array", { style: "label" }, array, ".blue,black,brown"],
    ["label exploded array", { style: "label", explode: true }, array, ".blue.black.brown"],
    ["label object", { style: "label" }, object, ".R,100,G,200,B,150"],
    ["label exploded object", { style: "label", explode: true }, object, ".R=100.G=200.B=150"],
    ["matrix", { style: "matrix" }, "blue", ";color=blue"],
    ["matrix array", { style: "matrix" }, array, ";color=blue,black,brown"],
    ["matrix exploded array", { style: "matrix", explode: true }, array, ";color=blue;color=black;color=brown"],
    ["matrix object", { style: "matrix" }, object, ";color=R,100,G,200,B,150"],
    ["matrix exploded object", { style: "matrix", explode: true }, object, ";R=100;G=200;B=150"],
    ["percent-encoding", {}, "a/b c?d#é", "a%2Fb%20c%3Fd%23%C3%A9"],
    ["numbers and booleans", {}, [1, true], "1,true"],
    ["content (JSON)", { content: "application/json" }, { a: 1 }, "%7B%22a%22%3A1%7D"],
  ])("%s", (_, spec, value, expected) => {
    expect(serializePath("/x/{color}", one({ name: "color", ...spec }), { color: value })).toBe(`/x/${expected}`);
  });

  test("a missing path parameter is an error, not the text 'undefined'", () => {
    expect(() => serializePath("/jobs/{id}", new Map(), {})).toThrow(/Missing path parameter "id"/);
  });
});

describe("query parameters", () => {
  test.each<[string, Omit<ParamSpec, "name">, unknown, string]>([
    ["form", {}, "blue", "color=blue"],
    ["form array (exploded by default)", {}, array, "color=blue&color=black&color=brown"],
    ["form array not exploded", { explode: false }, array, "color=blue,black,brown"],
    ["form object (exploded by default)", {}, object, "R=100&G=200&B=150"],
    ["form object not exploded", { explode: false }, object, "color=R,100,G,200,B,150"],
    ["spaceDelimited array", { style: "spaceDelimited", explode: false }, array, "color=blue%20black%20brown"],
    ["pipeDelimited array", { style: "pipeDelimited", explode: false }, array, "color=blue|black|brown"],
    ["spaceDelimited exploded array", { style: "spaceDelimited", explode: true }, array, "color=blue&color=black&color=brown"],
    ["deepObject", { style: "deepObject" }, object, "color[R]=100&color[G]=200&color[B]=150"],
    ["deepObject nested", { style: "deepObject" }, { a: { b: 1 }, c: ["x", "y"] }, "color[a][b]=1&color[c][0]=x&color[c][1]=y"],
    ["encoding", {}, "a&b=c d+é", "color=a%26b%3Dc%20d%2B%C3%A9"],
    ["allowReserved", { allowReserved: true }, "https://x.test/a?b=1&c#d", "color=https://x.test/a?b%3D1%26c%23d"],
    ["content (JSON)", { content: "application/json" }, { id: 1 }, "color=%7B%22id%22%3A1%7D"],
    ["date", {}, new Date("2024-01-02T03:04:05Z"), "color=2024-01-02T03%3A04%3A05.000Z"],
    ["null elements skipped", {}, ["a", null, "b"], "color=a&color=b"],
  ])("%s", (_, spec, value, expected) => {
    expect(serializeQuery(one({ name: "color", ...spec }), { color: value })).toBe(expected);
  });

  test("null and undefined values are left out; unknown keys use form style", () => {
    expect(serializeQuery(one({ name: "after" }), { after: null, limit: 5, order: undefined, tags: ["a", "b"] })).toBe(
      "limit=5&tags=a&tags=b",
    );
  });
});

describe("headers and cookies", () => {
  test("header parameters are simple style, never percent-encoded", () => {
    const headers = new Headers();
    const specs = new Map<string, ParamSpec>([["X-Obj", { name: "X-Obj", explode: true }], ["X-Json", { name: "X-Json", content: "application/json" }]]);
    serializeHeaders(specs, { "X-Flags": ["a", "b c"], "X-Obj": { a: 1, b: 2 }, "X-Json": { q: "x" }, "X-None": null }, headers);
    expect(Object.fromEntries(headers)).toEqual({ "x-flags": "a,b c", "x-obj": "a=1,b=2", "x-json": '{"q":"x"}' });
  });

  test("cookie parameters are joined into one Cookie header", () => {
    expect(serializeCookies(new Map(), { session: "a b", theme: "dark", gone: undefined })).toBe("session=a%20b; theme=dark");
    expect(serializeCookies(new Map(), {})).toBeUndefined();
  });
});

describe("bodies", () => {
  test("JSON media types", () => {
    expect(["application/json", "application/merge-patch+json", "application/json; charset=utf-8"].map(isJsonMediaType)).toEqual([true, true, true]);
    expect(["application/x-ndjson", "text/json-ish", "application/jsonl"].map(isJsonMediaType)).toEqual([false, false, false]);
    expect(serializeBody("application/merge-patch+json", { a: null })).toEqual({ body: '{"a":null}', contentType: "application/merge-patch+json" });
  });

  test("form-urlencoded: arrays repeat, objects become JSON, nulls are left out", () => {
    const { body, contentType } = serializeBody("application/x-www-form-urlencoded", { name: "a b", tags: ["x", "y"], meta: { a: 1 }, gone: null });
    expect(String(body)).toBe("name=a+b&tags=x&tags=y&meta=%7B%22a%22%3A1%7D");
    expect(contentType).toBe("application/x-www-form-urlencoded");
  });

  test("multipart: Blobs are files, arrays repeat, objects are JSON; fetch writes the Content-Type", async () => {
    const file = new File(["hello"], "a.txt", { type: "text/plain" });
    const { body, contentType } = serializeBody("multipart/form-data", { file, tags: ["x", "y"], meta: { a: 1 }, raw: new Uint8Array([1, 2]), n: 3 });
    expect(contentType).toBeUndefined();
    const form = body as FormData;
    expect((form.get("file") as File).name).toBe("a.txt");
    expect(form.getAll("tags")).toEqual(["x", "y"]);
    expect(form.get("meta")).toBe('{"a":1}');
    expect(new Uint8Array(await (form.get("raw") as Blob).arrayBuffer())).toEqual(new Uint8Array([1, 2]));
    expect(form.get("n")).toBe("3");
  });

  test("binary bodies pass through; a wildcard media type takes the Blob's type", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(serializeBody("application/octet-stream", bytes)).toEqual({ body: bytes, contentType: "application/octet-stream" });
    const png = new Blob(["x"], { type: "image/png" });
    expect(serializeBody("image/*", png).contentType).toBe("image/png");
    expect(serializeBody("text/plain", 42)).toEqual({ body: "42", contentType: "text/plain" });
  });
});
