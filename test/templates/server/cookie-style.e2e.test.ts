/**
 * OpenAPI 3.2's `style: cookie` on the wire: cookies as RFC 6265 sends them, never percent-decoded, exploded lists as
 * the cookie repeated and exploded objects as one cookie per property (the 3.2 specification's style examples:
 * `color=blue`, `color=blue; color=black; color=brown`, `R=100; G=200; B=150`, unexploded `color=blue,black,brown`
 * and `color=R,100,G,200,B,150`). A `form` cookie (3.0/3.1) is still percent-decoded.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRouterRuntime, type RouteSpec } from "../../../templates/server/index.js";
import { toNodeListener } from "../../../templates/server/node.js";
import { listen, type Running } from "./helpers.js";

const spec: RouteSpec = {
  name: "prefs",
  method: "GET",
  path: "/prefs",
  secured: false,
  params: {
    path: [],
    query: [],
    header: [],
    cookie: [
      { name: "color", required: false, style: "cookie", schema: { type: "string" } },
      { name: "colors", required: false, style: "cookie", schema: { type: "array", items: { type: "string" } } },
      { name: "list", required: false, style: "cookie", explode: false, schema: { type: "array", items: { type: "integer" } } },
      { name: "rgb", required: false, style: "cookie", schema: { type: "object", properties: { R: { type: "integer" }, G: { type: "integer" }, B: { type: "integer" } } } },
      { name: "box", required: false, style: "cookie", explode: false, schema: { type: "object", properties: { w: { type: "integer" }, h: { type: "integer" } } } },
      { name: "legacy", required: false, schema: { type: "string" } },
    ],
  },
  responses: { "200": { content: { "application/json": { schema: {} } } } },
  validationErrorStatus: 400,
};

let app: Running;
beforeAll(async () => {
  const router = createRouterRuntime({}, [spec], { prefs: ({ cookies }: { cookies: unknown }) => ({ status: 200, body: cookies as object }) });
  app = await listen(toNodeListener(router));
});
afterAll(() => app.close());

/** A GET with this exact Cookie header, over node:http (fetch would not send a Cookie header of our making). */
function get(cookie: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${app.url}/prefs`, { headers: { cookie }, timeout: 5000 }, (response) => {
      let text = "";
      response.setEncoding("utf8").on("data", (chunk) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) }));
    });
    outgoing.on("error", reject).on("timeout", () => outgoing.destroy(new Error("timed out")));
    outgoing.end();
  });
}

describe("style: cookie (OpenAPI 3.2) in the router", () => {
  it("reads the specification's examples", async () => {
    expect(await get("color=blue")).toEqual({ status: 200, body: { color: "blue" } });
    expect(await get("colors=blue; colors=black; colors=brown")).toEqual({ status: 200, body: { colors: ["blue", "black", "brown"] } });
    expect(await get("list=1,2,3")).toEqual({ status: 200, body: { list: [1, 2, 3] } });
    expect(await get("R=100; G=200; B=150")).toEqual({ status: 200, body: { rgb: { R: 100, G: 200, B: 150 } } });
    expect(await get("box=w,3,h,4")).toEqual({ status: 200, body: { box: { w: 3, h: 4 } } });
  });

  it("takes values as sent: no percent-decoding, unlike a form cookie beside it", async () => {
    expect(await get("color=a%20b; legacy=a%20b")).toEqual({ status: 200, body: { color: "a%20b", legacy: "a b" } });
    expect(await get('color="quoted"')).toEqual({ status: 200, body: { color: "quoted" } });
  });

  it("validates each property and item where it came from", async () => {
    const bad = await get("R=red; colors=a; list=1,x");
    expect(bad.status).toBe(400);
    expect((bad.body as { errors: unknown[] }).errors).toEqual([
      { loc: ["cookie", "list", 1], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" },
      { loc: ["cookie", "rgb", "R"], msg: "Input should be a valid integer, unable to parse string as an integer", type: "int_parsing" },
    ]);
  });
});
