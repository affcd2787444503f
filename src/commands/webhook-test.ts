import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createWebhookTools, type WebhookSpec } from "../../templates/webhooks/index.js";
import type { ResolvedConfig } from "../config/resolve.js";
import { webhookRuntimeSpec } from "../emit/webhooks.js";
import { UserError } from "../errors.js";
import { buildModel } from "../ir/build.js";
import { loadSpec, toDisplayPath } from "../load/index.js";

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
  timeoutMs: number;
}

export interface WebhookTestResult {
  status: number;
  ok: boolean;
  text: string;
}

/** Prefix of environment variables that fill `${NAME}` / `$NAME` secrets in a payload template. */
export const NAMED_SECRET_ENV_PREFIX = "SPECFORGE_SECRET_";

/**
 * `specforge webhook test`: sends one delivery the way the service's Test action does: renders the payload, signs
 * the exact bytes, POSTs them with the signature header and bearer token, and reports the reply.
 */
export async function runWebhookTest(
  config: ResolvedConfig,
  options: WebhookTestOptions,
  env: NodeJS.ProcessEnv,
): Promise<WebhookTestResult> {
  const target = parseTargetUrl(options.url);
  const model = buildModel(loadSpec(config.spec, config.cwd, { refRoots: config.refRoots, maxSpecFileBytes: config.maxSpecFileBytes }), toDisplayPath(config.spec, config.cwd));
  if (model.webhooks.length === 0) {
    throw new UserError("the spec declares no webhooks", { location: toDisplayPath(config.spec, config.cwd) });
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
  const template = options.payload
    ? readTextFile(resolve(config.cwd, options.payload), "--payload")
    : (hook?.payloadTemplate ?? JSON.stringify(hook?.example ?? {}));

  const variables: Record<string, unknown> = {};
  for (const v of model.webhookSettings.payloadVariables) if (v.example !== undefined) variables[v.name] = v.example;
  if (hook) variables.event_type = hook.eventType;
  for (const assignment of options.vars) {
    const eq = assignment.indexOf("=");
    if (eq <= 0) throw new UserError(`--var takes key=value, got ${JSON.stringify(assignment)}`);
    const value = assignment.slice(eq + 1);
    variables[assignment.slice(0, eq)] = /^\s*\{/.test(value) ? parseJsonFlag(value, "--var") : value;
  }

  const inCwd = (file: string | undefined) => (file === undefined ? undefined : resolve(config.cwd, file));
  const secret = readCredential(env, options.secretEnv, inCwd(options.secretFile), "secret");
  const token = readCredential(env, options.tokenEnv, inCwd(options.tokenFile), "token");
  const secrets: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(NAMED_SECRET_ENV_PREFIX) && value !== undefined) secrets[name.slice(NAMED_SECRET_ENV_PREFIX.length)] = value;
  }
  if (token !== undefined) secrets.ACCESS_TOKEN = token;

  const spec = webhookRuntimeSpec(model) as unknown as WebhookSpec;
  const tools = createWebhookTools<Record<string, unknown>>(spec);
  const body = tools.renderTemplate(template, variables as never, secrets);

  const headers = new Headers({ "content-type": "application/json", "user-agent": "specforge-webhook-test" });
  if (secret !== undefined) {
    const header = spec.signature?.header;
    if (!header) throw new UserError("the spec declares no signature header (x-webhook-signature), so there is nothing to sign with --secret-env");
    headers.set(header, await tools.sign(body, secret));
  }
  if (token !== undefined) headers.set(spec.auth?.header ?? "authorization", `Bearer ${token}`);

  const started = performance.now();
  let response: Response;
  try {
    response = await fetch(target, { method: "POST", headers, body, signal: AbortSignal.timeout(options.timeoutMs), redirect: "manual" });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === "TimeoutError" ? `no answer within ${options.timeoutMs} ms` : (cause?.code ?? cause?.message ?? (error as Error).message);
    return { status: 0, ok: false, text: `POST ${target.href} failed: ${why}\nsent ${Buffer.byteLength(body)} bytes` };
  }
  const reply = await response.text();
  const elapsed = Math.round(performance.now() - started);
  const lines = [
    `POST ${target.href}${hook ? ` (${hook.key})` : ""}`,
    `sent: ${Buffer.byteLength(body)} bytes${secret !== undefined ? `, signed (${spec.signature?.header})` : ", unsigned"}${token !== undefined ? ", with bearer token" : ""}`,
    `status: ${response.status} ${response.statusText} in ${elapsed} ms`,
    ...[...response.headers].map(([name, value]) => `${name}: ${value}`),
    "",
    reply,
  ];
  return { status: response.status, ok: response.ok, text: lines.join("\n") };
}

function parseTargetUrl(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UserError(`--url is not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new UserError(`--url must be http or https, got ${parsed.protocol}`);
  }
  return parsed;
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
