import { afterAll, describe, expect, it } from "vitest";
import { generate } from "../../src/index.js";
import { createWebhookTools } from "../../templates/webhooks/index.js";
import { githubScheme } from "../../templates/webhooks/scheme-github.js";
import { zoomScheme } from "../../templates/webhooks/scheme-zoom.js";
import { cleanupTempDirs, tempDir, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

/** A webhooks-only spec that says nothing about signatures (as Zoom's and most vendors' do). */
const SILENT = `openapi: 3.1.0
info: { title: Hooks, version: "1" }
webhooks:
  meeting.started:
    post:
      requestBody:
        content:
          application/json:
            schema: { type: object, properties: { event: { type: string } } }
      responses: { "200": { description: ok } }
`;

/** The same with its own HMAC of the body in a header (`x-webhook-signature`): no named scheme is the default. */
const OWN_HMAC = SILENT.replace("webhooks:\n", "x-webhook-signature: { header: X-Signature }\nwebhooks:\n");

async function webhooksOutput(spec: string, form: "ts" | "js", webhooks?: object): Promise<{ schemes: string[]; modules: string[]; file: string }> {
  const project = tempDir("specforge-webhook-schemes-");
  writeFiles(project, { "openapi.yaml": spec });
  const { files } = await generate({ cwd: project, spec: "openapi.yaml", format: false, form, outputs: ["webhooks"], ...(webhooks ? { webhooks } : {}) });
  const modules = [...files.keys()].filter((path) => path.startsWith("runtime/webhooks/")).map((path) => path.slice("runtime/webhooks/".length));
  const schemes = [...new Set(modules.flatMap((name) => /^scheme-([\w-]+)\.(?:d\.ts|ts|js)$/.exec(name)?.[1] ?? []))];
  return { schemes, modules, file: files.get(form === "ts" ? "webhooks.ts" : "webhooks.js")! };
}

describe("the webhooks runtime: only the signature schemes the output uses", () => {
  it.each(["ts", "js"] as const)("%s form: a spec and config that name none carry the default, Standard Webhooks, alone", async (form) => {
    const { schemes, modules, file } = await webhooksOutput(SILENT, form);
    expect(schemes).toEqual(["standard-webhooks"]);
    expect(modules).toContain(`schemes.${form}`);
    expect(file).toMatch(/import \{ standardWebhooksScheme \} from "\.\/runtime\/webhooks\/scheme-standard-webhooks\.js";/);
    expect(file).toMatch(/const schemes(: SchemePreset\[\])? = \[standardWebhooksScheme\];/);
    expect(file).toContain("createWebhookTools(webhookSpec, schemes)".replace("(", form === "ts" ? "<WebhookEvents, PayloadVariables>(" : "("));
  });

  it.each(["ts", "js"] as const)("%s form: the config's default and the schemes it adds, and nothing else", async (form) => {
    const { schemes, file } = await webhooksOutput(SILENT, form, { scheme: "zoom", schemes: ["stripe", "svix"] });
    // Svix is Standard Webhooks' format under other header names: its module brings that one along.
    expect(schemes.sort()).toEqual(["standard-webhooks", "stripe", "svix", "zoom"]);
    expect(file).toMatch(/const schemes(: SchemePreset\[\])? = \[svixScheme, stripeScheme, zoomScheme\];/);
    expect(file).not.toMatch(/standardWebhooksScheme|githubScheme|twilioScheme/);
  });

  it("a spec with its own HMAC header carries no named scheme: the described one needs no module", async () => {
    const { schemes, file } = await webhooksOutput(OWN_HMAC, "ts");
    expect(schemes).toEqual([]);
    expect(file).toMatch(/const schemes: SchemePreset\[\] = \[\];/);
  });

  it("a scheme the output does not carry fails when the receiver is created, naming the config field that adds it", async () => {
    const tools = createWebhookTools<{ "meeting.started": unknown }>({ scheme: "zoom", events: ["meeting.started"] }, [zoomScheme]);
    const secret = "zoom-secret-token";
    const body = JSON.stringify({ event: "meeting.started" });
    // The carried scheme verifies what it signs.
    const event = await tools.parse({ body, headers: await tools.signDelivery(body, secret) }, { secret });
    expect(event.type).toBe("meeting.started");
    for (const create of [
      () => tools.createHandler({ secret, scheme: "github", on: {} }),
      () => tools.createNodeListener({ secret, scheme: "github", on: {} }),
    ]) {
      expect(create).toThrow(/The github webhook scheme is not in this generated output \(it carries zoom\): add it to the specforge config field `webhooks\.schemes`/);
    }
    await expect(tools.signDelivery(body, secret, { scheme: "stripe" })).rejects.toThrow(/`webhooks\.schemes`/);
    // Unknown names keep their own message.
    expect(() => tools.createHandler({ secret, scheme: "zooom" as never, on: {} })).toThrow(/Unknown webhook scheme "zooom"/);
    // Carried, it works.
    const withGithub = createWebhookTools<{ "meeting.started": unknown }>({ scheme: "zoom", events: ["meeting.started"] }, [zoomScheme, githubScheme]);
    expect(() => withGithub.createHandler({ secret, scheme: "github", on: {} })).not.toThrow();
  });

  it("the config's `webhooks.schemes` takes scheme names only, and says where it is wrong", async () => {
    const project = tempDir("specforge-webhook-schemes-");
    writeFiles(project, { "openapi.yaml": SILENT, "specforge.config.json": JSON.stringify({ spec: "openapi.yaml", webhooks: { schemes: ["stripe", "zooom"] } }) });
    await expect(generate({ cwd: project })).rejects.toThrow(/config field `webhooks\.schemes` must be a list of scheme names \(standard-webhooks, svix, .*\), got "zooom"/);
    await expect(generate({ cwd: project })).rejects.toMatchObject({ location: expect.stringContaining("webhooks/schemes/1") });
  });
});
