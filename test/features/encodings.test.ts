import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGroup, importGenerated, type BuiltGroup } from "./harness.js";

/**
 * Form and multipart bodies with Encoding Objects, and deepObject queries, end to end over HTTP on 127.0.0.1: the
 * generated client writes what the spec's `encoding` says (checked byte for byte on the wire), and the generated
 * router (through `toNodeListener`) reads it back into exactly the values the client was given. The fixture is
 * modelled on Stripe's spec. Types: encodings.types.ts.
 */
let group: BuiltGroup;
let server: Server;
let client: Record<string, (params?: unknown) => Promise<any>>;
let formPart: (value: unknown, options?: object) => unknown;
const seen: { url: string; contentType: string; body: string }[] = [];

beforeAll(async () => {
  group = await buildGroup("encodings", [{ name: "encodings", spec: "encodings.yaml" }]);
  const generated = await importGenerated(group, "encodings");
  formPart = generated.formPart;
  const router = generated.createRouter(
    {
      postCustomers: ({ body }: any) => ({ status: 200, body }),
      getCustomers: ({ query }: any) => ({ status: 200, body: query }),
      postFiles: async ({ body }: any) => ({
        status: 200,
        body: { ...body, file: { name: body.file.name, type: body.file.type, text: await body.file.text() } },
      }),
    },
    { insecureNoAuth: true, validateResponses: true },
  );
  server = createServer(generated.toNodeListener(router));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  client = generated.createClient({
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    maxRetries: 0,
    // Records the exact bytes the request carries, then sends it over HTTP.
    fetch: async (request: Request) => {
      const body = request.body ? Buffer.from(await request.clone().arrayBuffer()).toString("latin1") : "";
      seen.push({ url: request.url.replace(/^http:\/\/[^/]+/, ""), contentType: request.headers.get("content-type") ?? "", body });
      return fetch(request);
    },
  });
}, 300_000);
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

describe("encodings", () => {
  it("type-check with their assertions under tsc --strict", () => {
    expect(group.stderr.encodings).toBe("");
    expect(group.tsc.output).toBe("");
  });

  it("the issue's Stripe call: metadata[plan]=pro and preferred_locales[0]=fr, as the stripe package sends them", async () => {
    seen.length = 0;
    const body = { metadata: { plan: "pro" }, preferred_locales: ["fr", "en"] };
    expect(await client.postCustomers!({ body })).toEqual(body);
    expect(seen[0]).toEqual({
      url: "/v1/customers",
      contentType: "application/x-www-form-urlencoded",
      body: "metadata[plan]=pro&preferred_locales[0]=fr&preferred_locales[1]=en",
    });
  });

  it("a Stripe-shaped form: nested deepObject objects and arrays, scalars coerced back by the schema", async () => {
    seen.length = 0;
    const body = {
      email: "ann@example.com",
      name: "Ann Lee & Co",
      balance: -100,
      tax_exempt: "none",
      // (A key cannot contain [ or ]: the router decodes before it splits, and Stripe forbids them too.)
      metadata: { plan: "pro", "odd key #1": "a=b&c" },
      expand: ["default_source", "invoice_settings.default_payment_method"],
      invoice_settings: { footer: "Thanks!", custom_fields: [{ name: "PO", value: "42" }, { name: "Ref", value: "x y" }] },
      cash_balance: { settings: { reconciliation_mode: "manual", enabled: true, threshold: 2.5 } },
      shipping_json: { city: "Paris" },
      csv: [1, 2, 3],
      // (A value cannot contain the delimiter: OpenAPI's own limitation, see its Appendix E.)
      pipes: ["a", "b", "c"],
      redirect: "https://example.test/cb?x=1",
      id_json: "f81d4fae",
      point: { x: 3, y: -1.5 },
    };
    expect(await client.postCustomers!({ body })).toEqual(body);
    expect(seen[0]!.body).toBe(
      [
        "email=ann%40example.com",
        "name=Ann%20Lee%20%26%20Co",
        "balance=-100",
        "tax_exempt=none",
        "metadata[plan]=pro",
        "metadata[odd%20key%20%231]=a%3Db%26c",
        "expand[0]=default_source",
        "expand[1]=invoice_settings.default_payment_method",
        "invoice_settings[footer]=Thanks%21",
        "invoice_settings[custom_fields][0][name]=PO",
        "invoice_settings[custom_fields][0][value]=42",
        "invoice_settings[custom_fields][1][name]=Ref",
        "invoice_settings[custom_fields][1][value]=x%20y",
        "cash_balance[settings][reconciliation_mode]=manual",
        "cash_balance[settings][enabled]=true",
        "cash_balance[settings][threshold]=2.5",
        // no encoding for an object: JSON (OpenAPI's default content type)
        "shipping_json=%7B%22city%22%3A%22Paris%22%7D",
        "csv=1,2,3",
        "pipes=a%7Cb%7Cc",
        "redirect=https://example.test/cb?x%3D1",
        // contentType: application/json on a string: the JSON string, quotes included
        "id_json=%22f81d4fae%22",
        // an exploded form object: its properties become fields of their own
        "x=3",
        "y=-1.5",
      ].join("&"),
    );
  });

  it("Stripe's empty string unsets: metadata= and custom_fields= survive the round trip as strings", async () => {
    seen.length = 0;
    const body = { metadata: "", invoice_settings: { custom_fields: "" } };
    expect(await client.postCustomers!({ body })).toEqual(body);
    expect(seen[0]!.body).toBe("metadata=&invoice_settings[custom_fields]=");
  });

  it("Stripe's emptyable scalars (anyOf: [integer, {enum: [\"\"]}]): a number arrives as a number, \"\" as \"\"", async () => {
    for (const body of [
      { application_fee_amount: 6, off_session: true, invoice_settings: { days_until_due: 30 } },
      { application_fee_amount: "", off_session: "one_off", invoice_settings: { days_until_due: "" } },
    ]) {
      seen.length = 0;
      expect(await client.postCustomers!({ body })).toEqual(body);
    }
    expect(seen[0]!.body).toBe("application_fee_amount=&off_session=one_off&invoice_settings[days_until_due]=");
  });

  it("deepObject query parameters: percent-encoded brackets, nested and indexed, read back typed", async () => {
    seen.length = 0;
    const query = { created: { gt: 1700000000, lte: 1800000000 }, expand: ["data.customer"], filter: { owner: { id: 7, verified: false }, tags: ["a", "b"] } };
    expect(await client.getCustomers!({ query })).toEqual(query);
    expect(seen[0]!.url).toBe(
      "/v1/customers?created%5Bgt%5D=1700000000&created%5Blte%5D=1800000000&expand%5B0%5D=data.customer" +
        "&filter%5Bowner%5D%5Bid%5D=7&filter%5Bowner%5D%5Bverified%5D=false&filter%5Btags%5D%5B0%5D=a&filter%5Btags%5D%5B1%5D=b",
    );
    // The other branch of `created`'s anyOf: a plain integer is sent as `created=…`.
    expect(await client.getCustomers!({ query: { created: 1700000000 } })).toEqual({ created: 1700000000 });
  });

  it("multipart: part Content-Types from the encoding, a pinned part header, JSON parts, deepObject parts, repeated fields", async () => {
    seen.length = 0;
    const png = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], "logo.png", { type: "image/png" });
    const received = await client.postFiles!({
      body: {
        file: png,
        purpose: "logo",
        count: 3,
        tags: ["x", "y z"],
        meta: { a: 1, b: ["p", "q"] },
        doc: "plain text",
        file_link_data: { create: true, expires_at: 1700000000, metadata: { k: "v" } },
      },
    });
    expect(received).toEqual({
      file: { name: "logo.png", type: "image/png", text: "\x89PNG".replace("\x89", "\ufffd") },
      purpose: "logo",
      count: 3,
      tags: ["x", "y z"],
      meta: { a: 1, b: ["p", "q"] },
      doc: "plain text",
      file_link_data: { create: true, expires_at: 1700000000, metadata: { k: "v" } },
    });
    const { contentType, body } = seen[0]!;
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(contentType)![1]!;
    const parts = body.split(`--${boundary}`).slice(1, -1).map((part) => part.replace(/^\r\n/, "").replace(/\r\n$/, ""));
    expect(parts).toEqual([
      'Content-Disposition: form-data; name="file"; filename="logo.png"\r\nContent-Type: image/png\r\nX-Rate-Limit-Limit: 10\r\n\r\n\x89PNG',
      'Content-Disposition: form-data; name="purpose"\r\n\r\nlogo',
      'Content-Disposition: form-data; name="count"\r\n\r\n3',
      'Content-Disposition: form-data; name="tags"\r\n\r\nx',
      'Content-Disposition: form-data; name="tags"\r\n\r\ny z',
      'Content-Disposition: form-data; name="meta"\r\nContent-Type: application/json\r\n\r\n{"a":1,"b":["p","q"]}',
      'Content-Disposition: form-data; name="doc"\r\nContent-Type: application/json\r\n\r\n"plain text"',
      'Content-Disposition: form-data; name="file_link_data[create]"\r\n\r\ntrue',
      'Content-Disposition: form-data; name="file_link_data[expires_at]"\r\n\r\n1700000000',
      'Content-Disposition: form-data; name="file_link_data[metadata][k]"\r\n\r\nv',
    ]);
  });

  it("formPart sets a part's file name, Content-Type and headers", async () => {
    seen.length = 0;
    const received = await client.postFiles!({
      body: { file: formPart(new Uint8Array([1, 2]), { filename: "raw.jpg", contentType: "image/jpeg", headers: { "X-Trace": "t1" } }) },
    });
    expect(received.file).toMatchObject({ name: "raw.jpg", type: "image/jpeg" });
    expect(seen[0]!.body).toContain('name="file"; filename="raw.jpg"\r\nContent-Type: image/jpeg\r\nX-Rate-Limit-Limit: 10\r\nX-Trace: t1\r\n');
  });

  it("the router refuses what the client would never send: brackets nested past the limit, __proto__ kept as data", async () => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/customers`;
    const deep = `metadata${"[a]".repeat(40)}=x`;
    const tooDeep = await fetch(base, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: deep });
    expect(tooDeep.status).toBe(400);
    const proto = await fetch(base, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "metadata[__proto__]=yes&metadata[constructor]=no&metadata[plan]=pro",
    });
    expect(proto.status).toBe(200);
    const echoed = await proto.text();
    expect(echoed).toBe('{"metadata":{"__proto__":"yes","constructor":"no","plan":"pro"}}');
    // A prototype key that would need an object value is refused by the schema (metadata values are strings).
    const nested = await fetch(base, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "metadata[__proto__][polluted]=yes" });
    expect(nested.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
