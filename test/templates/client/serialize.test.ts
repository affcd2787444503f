import { describe, expect, test } from "vitest";
import {
  encodeReserved,
  formPart,
  isJsonMediaType,
  multipartParts,
  serializeBody,
  serializeCookies,
  serializeHeaders,
  serializePath,
  serializeQuery,
} from "../../../templates/client/serialize.js";
import type { EncodingSpec, ParamSpec } from "../../../templates/client/types.js";

const one = (spec: ParamSpec) => new Map([[spec.name, spec]]);
const string = "blue";
const array = ["blue", "black", "brown"];
const object = { R: 100, G: 200, B: 150 };

/**
 * The Style Examples table of OpenAPI 3.1.1 (https://spec.openapis.org/oas/v3.1.1.html#style-examples), row by row:
 * [style, explode, string, array, object], `null` where the table says n/a. The query styles' examples are shown
 * there with a leading `?`, which is not part of the parameter.
 */
const STYLE_EXAMPLES: [ParamSpec["style"], boolean, string | null, string | null, string | null][] = [
  ["matrix", false, ";color=blue", ";color=blue,black,brown", ";color=R,100,G,200,B,150"],
  ["matrix", true, ";color=blue", ";color=blue;color=black;color=brown", ";R=100;G=200;B=150"],
  ["label", false, ".blue", ".blue,black,brown", ".R,100,G,200,B,150"],
  ["label", true, ".blue", ".blue.black.brown", ".R=100.G=200.B=150"],
  ["simple", false, "blue", "blue,black,brown", "R,100,G,200,B,150"],
  ["simple", true, "blue", "blue,black,brown", "R=100,G=200,B=150"],
  ["form", false, "color=blue", "color=blue,black,brown", "color=R,100,G,200,B,150"],
  ["form", true, "color=blue", "color=blue&color=black&color=brown", "R=100&G=200&B=150"],
  ["spaceDelimited", false, null, "color=blue%20black%20brown", "color=R%20100%20G%20200%20B%20150"],
  ["pipeDelimited", false, null, "color=blue%7Cblack%7Cbrown", "color=R%7C100%7CG%7C200%7CB%7C150"],
  ["deepObject", true, null, null, "color%5BR%5D=100&color%5BG%5D=200&color%5BB%5D=150"],
];

describe("the OpenAPI 3.1.1 style examples, exactly", () => {
  const rows = STYLE_EXAMPLES.flatMap(([style, explode, ...expected]) =>
    (["string", "array", "object"] as const).flatMap((kind, i) =>
      expected[i] === null ? [] : [[`${style} explode=${explode} ${kind}`, style, explode, { string, array, object }[kind], expected[i]!] as const],
    ),
  );
  test.each(rows)("%s", (_, style, explode, value, expected) => {
    const spec: ParamSpec = { name: "color", style, explode };
    if (style === "matrix" || style === "label" || style === "simple") {
      expect(serializePath("/{color}", one(spec), { color: value })).toBe(`/${expected}`);
    } else {
      expect(serializeQuery(one(spec), { color: value })).toBe(expected);
    }
  });

  test("the empty string: `;color` (matrix), `color=` (form); an empty path segment (simple) is refused, and label's `.` cannot be a whole segment", () => {
    const path = (style: ParamSpec["style"]) => serializePath("/{color}", one({ name: "color", style }), { color: "" });
    expect(path("matrix")).toBe("/;color");
    // `/members/` is the collection to many servers, not a member.
    expect(() => path("simple")).toThrow(/Missing or empty path parameter "color"/);
    expect(() => path("label")).toThrow(/"\." or "\.\." segment/);
    expect(serializePath("/x{color}", one({ name: "color", style: "label" }), { color: "" })).toBe("/x.");
    expect(serializeQuery(one({ name: "color" }), { color: "" })).toBe("color=");
  });

  test("undefined values (null, empty lists and objects, as RFC 6570 counts them) are left out of the query", () => {
    expect(serializeQuery(new Map(), { a: null, b: undefined, c: [], d: {}, e: 1 })).toBe("e=1");
  });
});

describe("percent-encoding (RFC 6570)", () => {
  test("only unreserved characters stay literal in names and values", () => {
    expect(serializeQuery(new Map(), { "a b": "x&y=z+w!'()*~._-é" })).toBe("a%20b=x%26y%3Dz%2Bw%21%27%28%29%2A~._-%C3%A9");
    expect(serializePath("/x/{id}", new Map(), { id: "a/b c?d#é!" })).toBe("/x/a%2Fb%20c%3Fd%23%C3%A9%21");
  });

  test("a delimiter inside a value is encoded, so the server can split first and decode after", () => {
    expect(serializeQuery(one({ name: "ids", explode: false }), { ids: ["a,b", "c"] })).toBe("ids=a%2Cb,c");
    expect(serializeQuery(one({ name: "ids", style: "pipeDelimited", explode: false }), { ids: ["a|b", "c"] })).toBe("ids=a%7Cb%7Cc");
    expect(serializePath("/{p}", one({ name: "p", style: "label", explode: true }), { p: ["a.b", "c"] })).toBe("/.a.b.c");
  });

  test("allowReserved keeps reserved characters a query can hold and %XX triples; [ ] # & = + are still encoded", () => {
    expect(encodeReserved("https://x.test/a?b=1&c#d[e]+f%20g%zz!$'()*,;@")).toBe("https://x.test/a?b%3D1%26c%23d%5Be%5D%2Bf%20g%25zz!$'()*,;@");
    expect(serializeQuery(one({ name: "redirect", allowReserved: true }), { redirect: "https://x.test/cb?x=1" })).toBe("redirect=https://x.test/cb?x%3D1");
  });
});

describe("where OpenAPI is silent: an exploded form object whose property is a list or an object", () => {
  test("a list repeats its field, as an exploded array does; an object is JSON, as in a form body without encoding", () => {
    expect(serializeQuery(one({ name: "page" }), { page: { size: 8, sort: ["name", "+id"], range: { from: 1 } } })).toBe(
      "size=8&sort=name&sort=%2Bid&range=%7B%22from%22%3A1%7D",
    );
  });
});

describe("where OpenAPI is silent: deepObject with arrays and nested objects, as Stripe's SDK writes them", () => {
  test("nested objects continue the brackets, arrays are indexed, a scalar is the plain name", () => {
    expect(serializeQuery(one({ name: "c", style: "deepObject", explode: true }), { c: { a: { b: 1 }, d: ["x", "y"] } })).toBe(
      "c%5Ba%5D%5Bb%5D=1&c%5Bd%5D%5B0%5D=x&c%5Bd%5D%5B1%5D=y",
    );
    expect(serializeQuery(one({ name: "created", style: "deepObject", explode: true }), { created: 1700000000 })).toBe("created=1700000000");
  });
});

describe("other values", () => {
  test.each<[string, Omit<ParamSpec, "name">, unknown, string]>([
    ["content (JSON) in a query", { content: "application/json" }, { id: 1 }, "color=%7B%22id%22%3A1%7D"],
    ["content: a string is taken as already serialised (openapi-typescript types it string)", { content: "application/json" }, '{"id":1}', "color=%7B%22id%22%3A1%7D"],
    ["date", {}, new Date("2024-01-02T03:04:05Z"), "color=2024-01-02T03%3A04%3A05.000Z"],
    ["null elements skipped", {}, ["a", null, "b"], "color=a&color=b"],
  ])("%s", (_, spec, value, expected) => {
    expect(serializeQuery(one({ name: "color", ...spec }), { color: value })).toBe(expected);
  });

  test("content (JSON) in a path", () => {
    expect(serializePath("/x/{f}", one({ name: "f", content: "application/json" }), { f: { a: 1 } })).toBe("/x/%7B%22a%22%3A1%7D");
  });

  test('a value that makes a "." or ".." segment is an error: URLs resolve those away (/users/.. would be /)', () => {
    for (const id of [".", ".."]) {
      expect(() => serializePath("/users/{id}/keys", new Map(), { id })).toThrow(`The path parameters of /users/{id}/keys make the path /users/${id}/keys`);
      expect(() => serializePath("/users/{id}", new Map(), { id })).toThrow(/"\." or "\.\." segment/);
    }
    // Dots inside a segment, or more of them, are ordinary text (and what the router hands back).
    expect(serializePath("/users/{id}", new Map(), { id: "..." })).toBe("/users/...");
    expect(serializePath("/users/{id}", new Map(), { id: ".hidden" })).toBe("/users/.hidden");
    expect(serializePath("/compare/{base}...{head}", new Map(), { base: ".", head: "." })).toBe("/compare/.....");
  });

  test("a missing path parameter is an error, not the text 'undefined'", () => {
    expect(() => serializePath("/jobs/{id}", new Map(), {})).toThrow(/Missing or empty path parameter "id"/);
  });

  test("null and undefined values are left out; unknown keys use form style", () => {
    expect(serializeQuery(one({ name: "after" }), { after: null, limit: 5, order: undefined, tags: ["a", "b"] })).toBe("limit=5&tags=a&tags=b");
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

/** A multipart body as the server's standard parser reads it, plus its raw text. */
async function readMultipart(result: { body: unknown; contentType: string | undefined }) {
  const response = new Response(result.body as Blob, { headers: { "content-type": result.contentType! } });
  const raw = await response.clone().text();
  return { form: await response.formData(), raw };
}

describe("bodies", () => {
  test("JSON media types", () => {
    expect(["application/json", "application/merge-patch+json", "application/json; charset=utf-8"].map(isJsonMediaType)).toEqual([true, true, true]);
    expect(["application/x-ndjson", "text/json-ish", "application/jsonl"].map(isJsonMediaType)).toEqual([false, false, false]);
    expect(serializeBody("application/merge-patch+json", { a: null })).toEqual({ body: '{"a":null}', contentType: "application/merge-patch+json" });
  });

  test("form-urlencoded without encoding: arrays repeat, objects become JSON, nulls are left out, spaces are %20", () => {
    const { body, contentType } = serializeBody("application/x-www-form-urlencoded", { name: "a b", tags: ["x", "y"], meta: { a: 1 }, gone: null });
    expect(body).toBe("name=a%20b&tags=x&tags=y&meta=%7B%22a%22%3A1%7D");
    expect(contentType).toBe("application/x-www-form-urlencoded");
  });

  test("form-urlencoded with Stripe's encoding: deepObject with brackets written literally, as the stripe package sends them", () => {
    const encoding: Record<string, EncodingSpec> = {
      metadata: { style: "deepObject", explode: true },
      preferred_locales: { style: "deepObject", explode: true },
      invoice_settings: { style: "deepObject", explode: true },
    };
    const { body } = serializeBody(
      "application/x-www-form-urlencoded",
      {
        email: "ann@example.com",
        metadata: { plan: "pro", "a b": "c&d" },
        preferred_locales: ["fr", "en"],
        invoice_settings: { custom_fields: [{ name: "PO", value: "42" }] },
      },
      encoding,
    );
    expect(body).toBe(
      "email=ann%40example.com&metadata[plan]=pro&metadata[a%20b]=c%26d&preferred_locales[0]=fr&preferred_locales[1]=en" +
        "&invoice_settings[custom_fields][0][name]=PO&invoice_settings[custom_fields][0][value]=42",
    );
  });

  test("form-urlencoded: every style, explode and allowReserved of an Encoding Object", () => {
    const encoding: Record<string, EncodingSpec> = {
      csv: { style: "form", explode: false },
      pipes: { style: "pipeDelimited", explode: false },
      point: { explode: true },
      url: { allowReserved: true },
      id: { contentType: "application/json" },
    };
    const { body } = serializeBody("application/x-www-form-urlencoded", { csv: [1, 2], pipes: ["a", "b"], point: { x: 1, y: 2 }, url: "https://x.test/?a=b", id: "f81d" }, encoding);
    expect(body).toBe("csv=1,2&pipes=a%7Cb&x=1&y=2&url=https://x.test/?a%3Db&id=%22f81d%22");
  });

  test("multipart: files, repeated fields, JSON parts with their Content-Type; values byte for byte", async () => {
    const file = new File(["hello"], "a.txt", { type: "text/plain" });
    const result = serializeBody("multipart/form-data", { file, tags: ["x", "y"], meta: { a: 1 }, raw: new Uint8Array([1, 2]), n: 3, text: "line1\nline2" });
    expect(result.contentType).toMatch(/^multipart\/form-data; boundary=----specforge[0-9a-f]{32}$/);
    const { form, raw } = await readMultipart(result);
    expect((form.get("file") as File).name).toBe("a.txt");
    expect(await (form.get("file") as File).text()).toBe("hello");
    expect(form.getAll("tags")).toEqual(["x", "y"]);
    expect(form.get("meta")).toBe('{"a":1}');
    expect(new Uint8Array(await (form.get("raw") as Blob).arrayBuffer())).toEqual(new Uint8Array([1, 2]));
    expect(form.get("n")).toBe("3");
    expect(raw).toContain('Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n');
    expect(raw).toContain('Content-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n');
    // A text part keeps its line breaks as given (FormData would turn \n into \r\n).
    expect(raw).toContain('name="text"\r\n\r\nline1\nline2\r\n');
  });

  test("multipart with encoding: part Content-Type (matched against the Blob's), pinned part headers, deepObject parts", async () => {
    const encoding: Record<string, EncodingSpec> = {
      avatar: { contentType: "image/png, image/jpeg", headers: { "X-Rate-Limit-Limit": "10" } },
      addresses: { contentType: "application/xml; charset=utf-8" },
      file_link_data: { style: "deepObject", explode: true },
    };
    const parts = multipartParts(
      {
        avatar: new Blob(["\x89PNG"], { type: "image/jpeg" }),
        addresses: ["<a/>", "<b/>"],
        file_link_data: { create: true, metadata: { k: "v" } },
        other: formPart("x,y", { contentType: "text/csv", filename: "o.csv", headers: { "X-Extra": "1" } }),
      },
      encoding,
    );
    expect(parts.map(({ name, filename, contentType, headers }) => ({ name, filename, contentType, headers }))).toEqual([
      { name: "avatar", filename: "blob", contentType: "image/jpeg", headers: [["X-Rate-Limit-Limit", "10"]] },
      { name: "addresses", filename: undefined, contentType: "application/xml; charset=utf-8", headers: undefined },
      { name: "addresses", filename: undefined, contentType: "application/xml; charset=utf-8", headers: undefined },
      { name: "file_link_data[create]", filename: undefined, contentType: undefined, headers: undefined },
      { name: "file_link_data[metadata][k]", filename: undefined, contentType: undefined, headers: undefined },
      { name: "other", filename: "o.csv", contentType: "text/csv", headers: [["X-Extra", "1"]] },
    ]);
    const { raw } = await readMultipart(serializeBody("multipart/form-data", { avatar: new Blob(["x"], { type: "image/gif" }) }, encoding));
    // A Blob whose type the declaration does not admit is sent as the first declared type.
    expect(raw).toContain('name="avatar"; filename="blob"\r\nContent-Type: image/png\r\nX-Rate-Limit-Limit: 10\r\n');
  });

  test("multipart names and file names are escaped as browsers do; a header value with a line break is refused", async () => {
    const { raw } = await readMultipart(serializeBody("multipart/form-data", { 'a"b\r\nc': formPart(new Blob(["x"]), { filename: 'f"\n.txt' }) }));
    expect(raw).toContain('Content-Disposition: form-data; name="a%22b%0D%0Ac"; filename="f%22%0A.txt"\r\n');
    expect(() => serializeBody("multipart/form-data", { a: formPart("x", { headers: { "X-A": "1\r\nX-Injected: 2" } }) })).toThrow(TypeError);
  });

  test("a part's Content-Disposition and Content-Type are written once: the encoder's, not a second one from its headers", async () => {
    const headers = { "Content-Disposition": "attachment; filename=evil.sh", "content-type": "text/x-sh", "X-Kept": "1" };
    const { raw, form } = await readMultipart(serializeBody("multipart/form-data", { doc: formPart(new Blob(["x"]), { filename: "a.txt", contentType: "text/plain", headers }) }));
    expect(raw.match(/content-disposition:/gi)).toHaveLength(1);
    expect(raw.match(/content-type:/gi)).toHaveLength(1);
    expect(raw).toContain('Content-Disposition: form-data; name="doc"; filename="a.txt"\r\nContent-Type: text/plain\r\nX-Kept: 1\r\n');
    expect((form.get("doc") as File).name).toBe("a.txt");
  });

  test("a FormData or URLSearchParams is sent as it is", () => {
    const form = new FormData();
    expect(serializeBody("multipart/form-data", form)).toEqual({ body: form, contentType: undefined });
    const params = new URLSearchParams("a=1");
    expect(serializeBody("application/x-www-form-urlencoded", params)).toEqual({ body: params, contentType: "application/x-www-form-urlencoded" });
  });

  test("binary bodies pass through; a wildcard media type takes the Blob's type", () => {
    const bytes = new Uint8Array([1, 2, 3]);
    expect(serializeBody("application/octet-stream", bytes)).toEqual({ body: bytes, contentType: "application/octet-stream" });
    const png = new Blob(["x"], { type: "image/png" });
    expect(serializeBody("image/*", png).contentType).toBe("image/png");
    expect(serializeBody("text/plain", 42)).toEqual({ body: "42", contentType: "text/plain" });
  });

  test("a form body is an object: a string is a form encoded already and goes as it is; an array has no name=value form", () => {
    expect(serializeBody("application/x-www-form-urlencoded", "a=1&b=2")).toEqual({ body: "a=1&b=2", contentType: "application/x-www-form-urlencoded" });
    expect(() => serializeBody("application/x-www-form-urlencoded", ["a", "b"])).toThrow(/name=value pairs: give an object .* not an array/);
    expect(() => serializeBody("application/x-www-form-urlencoded", new Blob(["x"]))).toThrow(TypeError);
  });

  test("multipart: a file keeps its part whatever the encoding's style (hey-api writes style: form on a binary property)", async () => {
    const file = new File(["bytes"], "a.bin", { type: "application/octet-stream" });
    const parts = multipartParts({ content: file, data: { prop: "x" } }, { content: { style: "form" }, data: { style: "form" } });
    expect(await Promise.all(parts.map(async (p) => [p.name, p.filename, p.value instanceof Blob ? await p.value.text() : p.value]))).toEqual([
      ["content", "a.bin", "bytes"],
      ["prop", undefined, "x"],
    ]);
  });

  test("a media range is never sent as a Content-Type: objects go as JSON (Kubernetes' */*), text as text/plain, bytes as octet-stream", () => {
    expect(serializeBody("*/*", { kind: "Pod", metadata: { name: "p" } })).toEqual({ body: '{"kind":"Pod","metadata":{"name":"p"}}', contentType: "application/json" });
    expect(serializeBody("application/*", [1])).toEqual({ body: "[1]", contentType: "application/json" });
    expect(serializeBody("*/*", "plain words")).toEqual({ body: "plain words", contentType: "text/plain;charset=UTF-8" });
    expect(serializeBody("text/*", { a: 1 })).toEqual({ body: '{"a":1}', contentType: "text/plain;charset=UTF-8" });
    const bytes = new Uint8Array([1, 2, 3]);
    expect(serializeBody("*/*", bytes)).toEqual({ body: bytes, contentType: "application/octet-stream" });
    // A Blob keeps its own type only where the range admits it.
    expect(serializeBody("image/*", new Blob(["x"], { type: "text/html" })).contentType).toBe("application/octet-stream");
    expect(serializeBody("*/*", new Blob(["x"], { type: "application/pdf" })).contentType).toBe("application/pdf");
  });
});
