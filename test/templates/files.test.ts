/**
 * The file templates (templates/files/) are ordinary TypeScript: their fixed code runs here, against their
 * stand-ins (a small pet store, test/fixtures/templates/stand-in.yaml), over real HTTP on 127.0.0.1.
 */
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { ApiError } from "../../templates/client/index.js";
import * as entry from "../../templates/files/index.js";
import { createClient } from "../../templates/files/client.js";
import { createRouter, toNodeListener } from "../../templates/files/server.js";
import { createWebhookHandler, signWebhookDelivery, WEBHOOK_EVENT_TYPES } from "../../templates/files/webhooks.js";
import { FIXTURES, ROOT, cleanupTempDirs, tempDir } from "../helpers.js";

const STAND_IN = join(FIXTURES, "templates", "stand-in.yaml");
const TEMPLATES = join(ROOT, "templates", "files");

let server: Server;
let baseUrl: string;

beforeAll(async () => {
  // The template's router, serving the template's stand-in routes.
  const pets = new Map([[1, { id: 1, name: "Rex" }]]);
  const router = createRouter<{ user: string }>(
    {
      listPets: () => ({ status: 200, body: { data: [...pets.values()], has_more: false } }),
      getPet: ({ path }) => {
        const pet = pets.get(path.petId);
        return pet ? { status: 200, body: pet } : { status: 404, body: { message: "no such pet" } };
      },
      createPet: ({ body }) => {
        const pet = { id: pets.size + 1, ...body };
        pets.set(pet.id, pet);
        return { status: 201, body: pet };
      },
    },
    { authenticate: (credentials) => ("bearerAuth" in credentials && credentials.bearerAuth.token === "secret" ? { user: "u" } : null) },
  );
  server = createServer(toNodeListener(router));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  cleanupTempDirs();
});

describe("templates/files", () => {
  it("schema.ts is what specforge makes of the stand-in spec", async () => {
    const { files } = await generate({ spec: STAND_IN, out: join(tempDir(), "out"), cwd: ROOT, outputs: ["types"] });
    const body = (text: string) => text.slice(text.indexOf("export interface paths"));
    expect(body(readFileSync(join(TEMPLATES, "schema.ts"), "utf8"))).toBe(body(files.get("schema.ts")!));
  });

  it("client.ts and server.ts: the client calls the router with the typed methods the template declares", async () => {
    const client = createClient({ baseUrl, apiKey: "secret", maxRetries: 0 });
    expect(await client.getPet({ path: { petId: 1 } })).toEqual({ id: 1, name: "Rex" });
    const created = await client.createPet({ body: { name: "Tom", tag: "cat" } });
    expect(created).toEqual({ id: 2, name: "Tom", tag: "cat" });
    const names: string[] = [];
    for await (const pet of client.listPets.paginate()) names.push(pet.name);
    expect(names).toEqual(["Rex", "Tom"]);
    const missing = await client.getPet({ path: { petId: 9 } }).catch((error: unknown) => error);
    expect(client.getPet.isError(missing) && missing.status === 404 && missing.body.message).toBe("no such pet");
    // The stand-in's security: the router refuses a client without the token.
    const anonymous = await createClient({ baseUrl, maxRetries: 0 })
      .getPet({ path: { petId: 1 } })
      .catch((error: unknown) => error);
    expect(anonymous instanceof ApiError && anonymous.status).toBe(401);
  });

  it("webhooks.ts: a delivery signed with the template's tools is accepted by its receiver", async () => {
    expect(WEBHOOK_EVENT_TYPES).toEqual(["pet.adopted"]);
    const seen: string[] = [];
    const handler = createWebhookHandler({ secret: "whsec_c2VjcmV0", on: { "pet.adopted": (event) => void seen.push(event.payload.pet.name) } });
    const body = JSON.stringify({ type: "pet.adopted", pet: { id: 1, name: "Rex" } });
    const headers = await signWebhookDelivery(body, "whsec_c2VjcmV0");
    const response = await handler(new Request("http://127.0.0.1/hooks", { method: "POST", headers, body }));
    expect(response.status).toBe(200);
    expect(seen).toEqual(["Rex"]);
  });

  it("index.ts re-exports each module's public names", () => {
    for (const name of ["createClient", "ApiError", "createRouter", "toNodeListener", "HttpError", "createWebhookHandler", "WEBHOOK_EVENT_TYPES", "isWebhookVerificationError"]) {
      expect(entry, name).toHaveProperty(name);
    }
  });

  it("every statement a template marks `@slot` is one its emitter fills (a feature fixture of each kind)", async () => {
    // FileTemplate.print throws for a slot left unfilled, and `remove`/`keep`/`structure` for one that is not there.
    const { files } = await generate({ spec: join(FIXTURES, "features", "webhooks-plain.yaml"), out: join(tempDir(), "out"), cwd: ROOT });
    expect([...files.keys()]).toEqual(expect.arrayContaining(["client.ts", "server.ts", "webhooks.ts", "index.ts"]));
    const js = await generate({ spec: join(FIXTURES, "features", "webhooks-plain.yaml"), out: join(tempDir(), "out"), cwd: ROOT, form: "js" });
    expect([...js.files.keys()]).toEqual(expect.arrayContaining(["client.js", "client.d.ts", "server.js", "server.d.ts", "webhooks.js", "webhooks.d.ts", "index.ts"]));
  });
});
