import { describe, expect, it } from "vitest";
import { encodeMultipart, type MultipartPart } from "../../../templates/client/serialize.js";
import { MULTIPART_LIMITS, multipartBoundary, parseFormData, parseMultipartParts, type MultipartFields } from "../../../templates/server/multipart.js";
import type { ValidationIssue } from "../../../templates/server/schema.js";

/**
 * The router's multipart/form-data parser (templates/server/multipart.ts) against the parser it replaced, the
 * web-standard `Response.formData()` (undici's, in Node): on every body both accept they must read the same fields,
 * in the same order, with the same file names, types and bytes. The bodies are written by undici's own FormData
 * serialisation (what fetch sends for a FormData, as browsers do) and by the generated client's encoder.
 */

type Entry = [string, string | { name: string; type: string; bytes: number[] }];

async function entries(fields: { keys(): Iterable<string>; getAll(name: string): (string | File)[] }): Promise<Entry[]> {
  const out: Entry[] = [];
  for (const key of new Set(fields.keys())) {
    for (const value of fields.getAll(key)) {
      out.push([key, typeof value === "string" ? value : { name: value.name, type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] }]);
    }
  }
  return out;
}

async function bothRead(bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<{ ours: Entry[]; undici: Entry[] }> {
  const errors: ValidationIssue[] = [];
  const parsed = parseFormData(bytes, contentType, errors);
  expect(errors).toEqual([]);
  const undici = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
  return { ours: await entries(parsed as MultipartFields), undici: await entries(undici as unknown as MultipartFields) };
}

const binary = new Uint8Array(256).map((_, i) => i);

describe("parity with Response.formData()", () => {
  it("on bodies undici's FormData serialisation writes (what fetch and browsers send)", async () => {
    const form = new FormData();
    form.append("plain", "hello");
    form.append("unicode", "naïve ☃ 日本");
    form.append("empty", "");
    form.append("lines", "a\r\nb\nc\rd");
    form.append('quote"d name', "v");
    form.append("tag", "1");
    form.append("tag", "2");
    form.append("file", new File([binary], "bytes.bin", { type: "application/octet-stream" }));
    form.append("file", new File(["résumé"], "résumé \"final\".txt", { type: "text/plain;charset=utf-8" }));
    form.append("untyped", new Blob(["x"]));
    form.append("tag", "3");
    const request = new Request("http://127.0.0.1/", { method: "POST", body: form });
    const { ours, undici } = await bothRead(new Uint8Array(await request.arrayBuffer()), request.headers.get("content-type")!);
    expect(ours).toEqual(undici);
    expect(ours.map(([name]) => name)).toEqual(["plain", "unicode", "empty", "lines", 'quote"d name', "tag", "tag", "tag", "file", "file", "untyped"]);
  });

  it("one deliberate difference: an empty filename (an unselected file input) is an empty File, where undici makes it the string \"\"", async () => {
    const form = new FormData();
    form.append("nothing", new File([], ""));
    const request = new Request("http://127.0.0.1/", { method: "POST", body: form });
    const { ours, undici } = await bothRead(new Uint8Array(await request.arrayBuffer()), request.headers.get("content-type")!);
    expect(undici).toEqual([["nothing", ""]]);
    // (busboy reads it as a file too: a part with a filename parameter is one.)
    expect(ours).toEqual([["nothing", { name: "", type: "application/octet-stream", bytes: [] }]]);
  });

  it("on bodies the generated client writes (part headers, JSON and text parts, files)", async () => {
    const parts: MultipartPart[] = [
      { name: "doc", value: '{"a":[1,2]}', contentType: "application/json" },
      { name: "note", value: "text part", contentType: "text/plain" },
      { name: "file", value: new Blob([binary]), filename: "logo.png", contentType: "image/png", headers: [["X-Rate-Limit-Limit", "10"]] },
      { name: "file", value: new Blob(["second"]), filename: "ß.txt", contentType: "text/plain" },
      { name: "bare", value: "no content type" },
    ];
    const { body, contentType } = encodeMultipart("multipart/form-data", parts);
    const { ours, undici } = await bothRead(new Uint8Array(await body.arrayBuffer()), contentType);
    expect(ours).toEqual(undici);
    expect(ours).toHaveLength(5);
  });
});

describe("what Response.formData() refused", () => {
  const encoder = new TextEncoder();
  const read = (text: string, boundary = "b") => {
    const errors: ValidationIssue[] = [];
    const fields = parseFormData(encoder.encode(text), `multipart/form-data; boundary=${boundary}`, errors);
    return { fields, errors };
  };

  it("filename* with or without a plain filename; one that does not decode falls back to filename", async () => {
    const { fields } = read(
      [
        "--b",
        `Content-Disposition: form-data; name="a"; filename="fallback.txt"; filename*=UTF-8''%E2%9C%93.txt`,
        "",
        "1",
        "--b",
        `Content-Disposition: form-data; name="b"; filename*=iso-8859-1'de'Gr%FC%DFe.txt`,
        "",
        "2",
        "--b",
        `Content-Disposition: form-data; name="c"; filename="kept.txt"; filename*=UTF-8''%FF%FE`,
        "",
        "3",
        "--b--",
      ].join("\r\n"),
    );
    expect(["a", "b", "c"].map((name) => (fields!.getAll(name)[0] as File).name)).toEqual(["✓.txt", "Grüße.txt", "kept.txt"]);
  });

  it("part headers are kept per part, names in lower case, values as sent; a line without a colon is skipped", () => {
    const { fields } = read(["--b", `content-disposition: form-data; name="a"`, "X-One: 1", "no colon here", "X-Folded: first", "  second", "", "v", "--b--"].join("\r\n"));
    expect(fields!.headersOf("a")).toEqual([
      [
        ["content-disposition", 'form-data; name="a"'],
        ["x-one", "1"],
        ["x-folded", "first second"],
      ],
    ]);
  });
});

describe("the boundary (RFC 2046)", () => {
  it("1 to 70 characters of bchars, quoted or not, not ending in a space", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc")).toBe("abc");
    expect(multipartBoundary('multipart/form-data; boundary="a b:c"; charset=x')).toBe("a b:c");
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(70)}`)).toBe("x".repeat(70));
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeUndefined();
    expect(multipartBoundary('multipart/form-data; boundary="ends "')).toBeUndefined();
    expect(multipartBoundary("multipart/form-data; boundary=")).toBeUndefined();
    expect(multipartBoundary("multipart/form-data; boundary=a<b")).toBeUndefined();
  });

  it("the limits are what docs/server.md states", () => {
    expect(MULTIPART_LIMITS).toEqual({ parts: 1000, headersPerPart: 32, headerLineBytes: 8192, headerBlockBytes: 16384 });
  });
});

describe("parts by position (multipart/mixed)", () => {
  const body = (...parts: [type: string, bytes: number[]][]) =>
    new Uint8Array([
      ...parts.flatMap(([type, bytes]) => [...Buffer.from(`--b\r\nContent-Type: ${type}\r\n\r\n`, "latin1"), ...bytes, 0x0d, 0x0a]),
      ...Buffer.from("--b--", "latin1"),
    ]);

  it("a text part is read in the charset it declares (RFC 2046), UTF-8 when it declares none", () => {
    const errors: ValidationIssue[] = [];
    const parts = parseMultipartParts(
      body(["text/plain; charset=ISO-8859-1", [0x63, 0x61, 0x66, 0xe9, 0x20, 0x80]], ["text/plain; charset=Shift_JIS", [0x93, 0xfa, 0x96, 0x7b]], ["text/plain", [...Buffer.from("café")]]),
      "multipart/mixed; boundary=b",
      32,
      errors,
    );
    expect(errors).toEqual([]);
    expect(parts).toEqual(["café €", "日本", "café"]);
  });

  it("a charset TextDecoder does not know, or text not valid in its charset, is an issue at the part", () => {
    const errors: ValidationIssue[] = [];
    expect(parseMultipartParts(body(["text/plain; charset=x-unknown", [0x61]]), "multipart/mixed; boundary=b", 32, errors)).toBeUndefined();
    expect(parseMultipartParts(body(["text/plain; charset=utf-8", [0xff]]), "multipart/mixed; boundary=b", 32, errors)).toBeUndefined();
    expect(errors.map((issue) => [issue.loc, issue.msg])).toEqual([
      [["body", 0], "Unknown charset 'x-unknown' of a text part: send a label TextDecoder knows, such as UTF-8, ISO-8859-1 or Shift_JIS"],
      [["body", 0], "Part is not valid utf-8"],
    ]);
  });
});
