import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { SchemaCompiler, mockFromSchema, type Schema, type SchemaDocument } from "../../templates/server/index.js";
import type { ValidationIssue } from "../../templates/server/schema.js";
import { createWebhookTools, type WebhookScheme, type WebhookSpec } from "../../templates/webhooks/index.js";
import { twilioJsonUrl } from "../../templates/webhooks/scheme-twilio.js";
import { schemeOf } from "../../templates/webhooks/parse.js";
import { resolveScheme } from "../../templates/webhooks/schemes.js";
import { ALL_SCHEMES } from "../emit/webhook-schemes.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { webhookRuntimeSpec } from "../emit/webhook-spec.js";
import { UserError } from "../errors.js";
import type { ApiModel, Webhook } from "../ir/model.js";
import { loadModel } from "../pipeline.js";

export interface WebhookTestOptions {
  url: string;
  /** Event type (a key under `webhooks:`); default: the first, or none with `payload`. */
  event?: string;
  /** A payload template file to send instead of the event's documented payload. */
  payload?: string;
  /** `key=value` overrides of payload variables; a JSON object value sets a map variable. */
  vars: string[];
  /** Names of environment variables (or paths of files) holding the signing secret and the access token. */
  secretEnv?: string;
  secretFile?: string;
  tokenEnv?: string;
  tokenFile?: string;
  /** The signature scheme; default: the config's, else the spec's, else Standard Webhooks (as the generated receiver). */
  scheme?: WebhookScheme;
  /** Milliseconds for the whole exchange: connecting, sending and reading the reply. */
  timeoutMs: number;
}

export interface WebhookTestResult {
  status: number;
  ok: boolean;
  text: string;
  /** Said on stderr whatever the outcome (an unsigned delivery, a reply cut short). */
  warnings: string[];
}

/** Prefix of environment variables that fill `${NAME}` / `$NAME` secrets in a payload template. */
const NAMED_SECRET_ENV_PREFIX = "SPECFORGE_SECRET_";

/** Bytes of the reply that are read and shown; the rest is not read (an endless reply must not fill memory). */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * `specforge webhook test`: sends one delivery the way the provider would: the payload (the event's template, else
 * its example, else a value generated from its schema), signed with the scheme over the exact bytes, with the access
 * token, and reports the reply. No reply in time (or none at all) is a UserError: the receiver is not there.
 */
export async function runWebhookTest(
  config: ResolvedConfig,
  options: WebhookTestOptions,
  env: NodeJS.ProcessEnv,
): Promise<WebhookTestResult> {
  const target = parseTargetUrl(options.url);
  if (!Number.isFinite(options.timeoutMs) || options.timeoutMs <= 0) {
    throw new UserError(`--timeout must be a positive number of milliseconds, got ${String(options.timeoutMs)}`);
  }
  // The spec is read and modelled as `generate` does, and the delivery built from the data webhooks.ts would hold.
  const { model, specShown } = await loadModel(config);
  if (model.webhooks.length === 0) {
    throw new UserError("the spec declares no webhooks", { location: specShown });
  }
  const hook = options.event
    ? model.webhooks.find((w) => w.key === options.event || w.eventType === options.event)
    : options.payload
      ? undefined
      : model.webhooks[0];
  if (options.event && !hook) {
    throw new UserError(`unknown event ${JSON.stringify(options.event)}`, {
      hint: `the spec declares: ${model.webhooks.map((w) => w.key).join(", ")}`,
    });
  }

  const inCwd = (file: string | undefined) => (file === undefined ? undefined : resolve(config.cwd, file));
  const secret = readCredential(env, options.secretEnv, inCwd(options.secretFile), "secret");
  const token = readCredential(env, options.tokenEnv, inCwd(options.tokenFile), "token");

  const warnings: string[] = [];
  const delivery = await webhookDelivery(model, config, hook, { ...options, url: target.url, secret, token, env, warnings });
  const { spec, scheme, body, headers } = delivery;
  target.url = delivery.url;
  if (token !== undefined) headers.set(spec.auth?.header ?? "authorization", `Bearer ${token}`);
  if (target.basic !== undefined) {
    if (headers.has("authorization")) throw new UserError("--url has a user:password and --token-env / --token-file sets Authorization too: use one");
    headers.set("authorization", target.basic);
  }

  const started = performance.now();
  const signal = AbortSignal.timeout(options.timeoutMs);
  const noReply = (error: unknown): UserError => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const timedOut = signal.aborted || (error as Error).name === "TimeoutError";
    const why = timedOut ? `no complete reply within ${options.timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
    return new UserError(`POST ${target.display} failed: ${escapeControl(String(why))} (sent ${Buffer.byteLength(body)} bytes)`, {
      hint: timedOut ? "is the receiver up and answering? --timeout sets the limit" : "is the receiver up at that URL?",
    });
  };
  let response: Response;
  let reply: { text: string; truncated: boolean };
  try {
    response = await fetch(target.url, { method: "POST", headers, body, signal, redirect: "manual" });
    reply = await readCapped(response, MAX_REPLY_BYTES);
  } catch (error) {
    throw noReply(error);
  }
  const elapsed = Math.round(performance.now() - started);
  if (reply.truncated) warnings.push(`the reply was longer than ${MAX_REPLY_BYTES} bytes: the rest was not read`);
  const lines = [
    `POST ${target.display}${hook ? ` (${hook.key})` : ""}`,
    `sent: ${Buffer.byteLength(body)} bytes${secret !== undefined ? `, signed (${scheme.name}: ${scheme.header})` : ", unsigned"}${token !== undefined ? ", with bearer token" : ""}`,
    `status: ${response.status} ${escapeControl(response.statusText)} in ${elapsed} ms`,
    ...[...response.headers].map(([name, value]) => `${name}: ${escapeControl(value)}`),
    "",
    withoutCiCommands(escapeControl(reply.text)) + (reply.truncated ? "\n[… cut at " + MAX_REPLY_BYTES + " bytes]" : ""),
  ];
  return { status: response.status, ok: response.ok, text: lines.join("\n"), warnings };
}

/** What `webhookDelivery` needs besides the spec: the `webhook test` options, the credentials read. */
export interface DeliveryOptions extends Pick<WebhookTestOptions, "payload" | "vars" | "scheme"> {
  url: URL;
  secret: string | undefined;
  token: string | undefined;
  env: NodeJS.ProcessEnv;
  /** Collects what is said on stderr. */
  warnings: string[];
}

/**
 * The delivery `webhook test` sends for `hook`, built from the data the generated webhooks.ts holds (the config's
 * `webhooks` over the spec's): the payload, with the event where the receiver reads it (a body property, or an event
 * header), signed under the scheme the receiver chooses. Twilio: the URL gains the body's `bodySHA256`.
 */
export async function webhookDelivery(model: ApiModel, config: Pick<ResolvedConfig, "cwd" | "webhooks">, hook: Webhook | undefined, options: DeliveryOptions) {
  const spec = webhookRuntimeSpec(model, config.webhooks);
  const tools = createWebhookTools<Record<string, unknown>>(spec, ALL_SCHEMES);
  const scheme = resolveScheme(schemeOf(spec, { scheme: options.scheme }), ALL_SCHEMES);
  // Where the receiver looks for the event first (what the spec says or implies, else the scheme's convention).
  const eventAt = spec.eventType ?? (model.webhooks.length > 1 ? scheme.eventSources[0] : undefined);
  const body = renderBody(model, hook, options, config.cwd, tools.renderTemplate, options.env, options.token, options.warnings, eventAt);

  const headers = new Headers({ "content-type": "application/json", "user-agent": "specforge-webhook-test" });
  // Twilio signs the URL, and a JSON body by its hash in the URL's `bodySHA256`.
  const url = scheme.kind === "twilio" ? new URL(await twilioJsonUrl(options.url.href, body)) : options.url;
  if (options.secret !== undefined) {
    let signed: Record<string, string>;
    try {
      signed = await tools.signDelivery(body, options.secret, { scheme: options.scheme, url: url.href });
    } catch (error) {
      throw new UserError(`cannot sign with the ${scheme.name} scheme: ${(error as Error).message}`);
    }
    for (const [name, value] of Object.entries(signed)) headers.set(name, value);
  } else {
    options.warnings.push("no --secret-env / --secret-file: the delivery is sent unsigned, and a receiver that checks signatures answers 401");
  }
  if (hook && eventAt?.in === "header") headers.set(eventAt.name, eventHeaderValue(hook));
  return { spec, scheme, url, body, headers };
}

/** The payload: a template (`--payload`, else the event's `x-payload-template`) rendered, else a sample of the schema. */
function renderBody(
  model: ApiModel,
  hook: Webhook | undefined,
  options: Pick<WebhookTestOptions, "payload" | "vars">,
  cwd: string,
  render: (template: string, variables?: never, secrets?: Readonly<Record<string, string>>) => string,
  env: NodeJS.ProcessEnv,
  token: string | undefined,
  warnings: string[],
  eventAt: WebhookSpec["eventType"],
): string {
  const template = options.payload ? readTextFile(resolve(cwd, options.payload), "--payload") : hook?.payloadTemplate;
  if (template === undefined) {
    const sample = samplePayload(model, hook!, eventAt);
    if (sample.problem) {
      warnings.push(`the sample generated for ${hook!.key} does not satisfy its schema (${sample.problem}); --payload FILE sends your own`);
    }
    return JSON.stringify(sample.value);
  }
  const variables: Record<string, unknown> = {};
  for (const v of model.webhookSettings.payloadVariables) if (v.example !== undefined) variables[v.name] = v.example;
  if (hook) variables.event_type = hook.eventType;
  for (const assignment of options.vars) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) throw new UserError(`--var takes key=value, got ${JSON.stringify(assignment)}`);
    const value = assignment.slice(eq + 1);
    variables[assignment.slice(0, eq)] = /^\s*\{/.test(value) ? parseJsonFlag(value, "--var") : value;
  }
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(NAMED_SECRET_ENV_PREFIX) && value !== undefined) secrets[name.slice(NAMED_SECRET_ENV_PREFIX.length)] = value;
  }
  if (token !== undefined) secrets.ACCESS_TOKEN = token;
  return render(template, variables as never, secrets);
}

/**
 * A body for the event: its example when that validates, else one generated from its schema (which prefers the
 * schema's own examples), with the first way it fails its schema when it does (an unsatisfiable or unusual schema).
 * Webhook bodies come from the provider, so they are generated as responses are: `readOnly` properties included.
 * `eventAt`: where the receiver reads the event name; a body property there is set to this event's name, so that the
 * sample is a delivery of this event (a generated string would name none).
 */
export function samplePayload(model: ApiModel, hook: Webhook, eventAt?: WebhookSpec["eventType"]): { value: unknown; problem?: string } {
  const media = hook.requestBody?.content.find((c) => /json/i.test(c.type)) ?? hook.requestBody?.content[0];
  if (!media || media.schema === undefined) return { value: hook.example ?? {} };
  const document = model.document as SchemaDocument;
  const compiler = new SchemaCompiler(document);
  const schema = media.schema as Schema;
  const check = compiler.compile(schema, "response");
  const named = (value: unknown): unknown => {
    if (eventAt?.in !== "body" || typeof value !== "object" || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    const wanted = hook.eventValue ?? hook.eventType;
    if (eventAt.property === undefined) return hook.wireValues.includes(record[eventAt.name] as string) ? value : { ...record, [eventAt.name]: wanted };
    const inner = record[eventAt.name];
    return { ...record, [eventAt.name]: { ...(typeof inner === "object" && inner !== null ? inner : {}), [eventAt.property]: wanted } };
  };
  if (media.example !== undefined && check(media.example, [], null)) return { value: named(media.example) };
  const value = named(mockFromSchema(schema, document, { direction: "response", compiler }));
  if (check(value, [], null)) return { value };
  const issues: ValidationIssue[] = [];
  check(structuredClone(value), [], issues);
  const [first] = issues;
  return { value, problem: first ? `${first.loc.length > 0 ? `at ${first.loc.join(".")}: ` : ""}${first.msg}` : "it does not validate" };
}

/** The event header of a webhook: the value the generator found (GitHub's `x-github.subcategory`), else its key. */
function eventHeaderValue(hook: Webhook): string {
  return hook.eventValue ?? hook.eventHeader ?? hook.key;
}

/** Reads at most `max` bytes of the reply, then stops reading (cancels the stream). */
async function readCapped(response: Response, max: number): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    if (total + value.byteLength > max) {
      chunks.push(value.subarray(0, max - total));
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
    chunks.push(value);
    total += value.byteLength;
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks)), truncated };
}

/**
 * Control characters of text from the network as escapes, so a reply cannot move the cursor, retitle the terminal or
 * reorder what is shown: C0 (but tab and newline), DEL, C1, the bidirectional overrides and the line separators.
 */
function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const code = c.charCodeAt(0);
    if (c === "\r") return "\\r";
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
  });
}

/**
 * The reply with every line a CI runner would take for a command written inert: GitHub Actions reads a line that
 * starts with `::` (`::error::`, `::add-mask::`, `::set-output`, `::stop-commands::`; and `##[…]`), Azure Pipelines
 * one that starts with `##vso[`, whatever the process prints. Their first character is escaped (`\x3a:error::…`), so
 * a receiver's reply cannot annotate, mask, set outputs or stop command processing in the job that runs the test.
 */
function withoutCiCommands(text: string): string {
  return text.replace(/^(\s*)(::|##(?:vso)?\[)/gm, (_, space: string, command: string) => `${space}\\x${command.charCodeAt(0).toString(16)}${command.slice(1)}`);
}

interface Target {
  /** The URL sent to, without credentials (fetch refuses them in the URL). */
  url: URL;
  /** The URL as printed: a password is never shown. */
  display: string;
  /** `Basic …` from the URL's user:password, as curl sends it. */
  basic?: string;
}

function parseTargetUrl(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`--url is not a URL: ${JSON.stringify(url.replace(/\/\/[^/@]*@/, "//***@"))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UserError(`--url must be http or https, got ${parsed.protocol}`);
  }
  let basic: string | undefined;
  const shown = new URL(parsed.href);
  if (parsed.username || parsed.password) {
    basic = "Basic " + Buffer.from(`${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`).toString("base64");
    if (parsed.password) shown.password = "***";
    parsed.username = "";
    parsed.password = "";
  }
  return { url: parsed, display: escapeControl(shown.href), basic };
}

function parseJsonFlag(value: string, flag: string): unknown {
  try {
    return JSON.parse(value);
  } catch (error) {
    throw new UserError(`${flag}: invalid JSON: ${(error as Error).message}`);
  }
}

/** Secrets come from the environment or a file, never from argv (where `ps` and shell history would show them). */
function readCredential(env: NodeJS.ProcessEnv, envName: string | undefined, file: string | undefined, what: string): string | undefined {
  if (envName !== undefined) {
    const value = env[envName];
    if (value === undefined || value === "") throw new UserError(`the environment variable ${envName} (the ${what}) is not set or empty`);
    return value;
  }
  if (file !== undefined) return readTextFile(file, `--${what}-file`).replace(/\r?\n$/, "");
  return undefined;
}

function readTextFile(path: string, flag: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UserError(`${flag}: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? error})`);
  }
}
