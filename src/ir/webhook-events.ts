import type { Webhook } from "./model.js";

type Obj = Record<string, unknown>;
type Pointer = (string | number)[];

/** What the inference needs of the IR builder: `$ref`s followed, and warnings with a JSON pointer. */
export interface SchemaReader {
  deref(value: unknown, pointer: Pointer): unknown;
  warn(message: string, pointer: Pointer, hint?: string): void;
}

const isObject = (value: unknown): value is Obj => value !== null && typeof value === "object" && !Array.isArray(value);

/** Names providers give the property that names a delivery's event, most usual first (a tie goes to the earlier). */
const EVENT_PROPERTY_NAMES = ["type", "event", "event_type", "eventType", "event_name", "eventName", "topic", "kind"];
/** A header that names the event: `X-GitHub-Event`, `X-Shopify-Topic`, `X-Event-Type`, … */
const EVENT_HEADER = /^x-[\w-]*(event|topic)[\w-]*$/i;
/** Composition deeper than this is not followed (no spec nests event names that deep; no stack to exhaust). */
const MAX_DEPTH = 8;
/** Unidentified webhooks warned about one by one; the rest are counted in one more warning. */
const MAX_WARNINGS = 5;

/** The JSON body schema of a webhook, as written. */
export function bodySchemaOf(ctx: SchemaReader, hook: Pick<Webhook, "requestBody">, pointer: Pointer): unknown {
  const media = hook.requestBody?.content.find((c) => /json/i.test(c.type)) ?? hook.requestBody?.content[0];
  return ctx.deref(media?.schema, pointer);
}

/**
 * The one string a body property can have (`const`, or a one-value `enum`), if the schema pins it: directly, in a
 * member of `allOf`, or the same in every member of `oneOf` / `anyOf` (GitHub's `pull-request-review-requested`).
 * With `mustBeRequired`, only where the schema also requires the property.
 */
export function pinnedProperty(ctx: SchemaReader, raw: unknown, name: string, mustBeRequired = false, depth = 0): string | undefined {
  const schema = ctx.deref(raw, []);
  if (!isObject(schema) || depth > MAX_DEPTH) return undefined;
  if (isObject(schema.properties) && (!mustBeRequired || (Array.isArray(schema.required) && schema.required.includes(name)))) {
    const property = ctx.deref(ownProperty(schema.properties, name), []);
    if (isObject(property)) {
      if (typeof property.const === "string") return property.const;
      if (Array.isArray(property.enum) && property.enum.length === 1 && typeof property.enum[0] === "string") return property.enum[0];
    }
  }
  for (const member of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const value = pinnedProperty(ctx, member, name, mustBeRequired, depth + 1);
    if (value !== undefined) return value;
  }
  for (const keyword of ["oneOf", "anyOf"] as const) {
    const members = Array.isArray(schema[keyword]) ? schema[keyword] : [];
    const values = new Set(members.map((member) => pinnedProperty(ctx, member, name, mustBeRequired, depth + 1)));
    const [only] = values;
    if (members.length > 0 && values.size === 1 && only !== undefined) return only;
  }
  return undefined;
}

function ownProperty(object: Obj, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, name) ? object[name] : undefined;
}

/** Every schema a top-level property `name` has in `raw` (through `allOf`, `oneOf`, `anyOf`). */
function propertySchemas(ctx: SchemaReader, raw: unknown, name: string, depth = 0): Obj[] {
  const schema = ctx.deref(raw, []);
  if (!isObject(schema) || depth > MAX_DEPTH) return [];
  const found: Obj[] = [];
  const own = isObject(schema.properties) ? ctx.deref(ownProperty(schema.properties, name), []) : undefined;
  if (isObject(own)) found.push(own);
  for (const keyword of ["allOf", "oneOf", "anyOf"] as const) {
    for (const member of Array.isArray(schema[keyword]) ? schema[keyword] : []) found.push(...propertySchemas(ctx, member, name, depth + 1));
  }
  return found;
}

/** The top-level property names a body schema declares (through `allOf`, `oneOf`, `anyOf`), in the order written. */
function propertyNames(ctx: SchemaReader, raw: unknown, depth = 0, names = new Set<string>()): Set<string> {
  const schema = ctx.deref(raw, []);
  if (!isObject(schema) || depth > MAX_DEPTH) return names;
  if (isObject(schema.properties)) for (const name of Object.keys(schema.properties)) names.add(name);
  for (const keyword of ["allOf", "oneOf", "anyOf"] as const) {
    for (const member of Array.isArray(schema[keyword]) ? schema[keyword] : []) propertyNames(ctx, member, depth + 1, names);
  }
  return names;
}

const isStringSchema = (schema: Obj) => schema.type === "string" || (Array.isArray(schema.type) && schema.type.includes("string")) || schema.type === undefined;

/** A candidate place a webhook's deliveries name it, with the value they carry there and how sure that is. */
interface Clue {
  readonly value: string;
  /** 3: pinned by `const` / one-value `enum`; 2: an `enum` that lists the webhook's name; 1: a free string named like an event property. */
  readonly strength: number;
}

/** Where each body property would name this webhook's deliveries. */
function bodyClues(ctx: SchemaReader, hook: Webhook, schema: unknown): Map<string, Clue> {
  const clues = new Map<string, Clue>();
  const names = [hook.eventType, hook.key];
  const example = isObject(hook.example) ? hook.example : undefined;
  for (const property of propertyNames(ctx, schema)) {
    const pinned = pinnedProperty(ctx, schema, property);
    if (pinned !== undefined) {
      clues.set(property, { value: pinned, strength: 3 });
      continue;
    }
    const schemas = propertySchemas(ctx, schema, property);
    const listed = schemas.flatMap((s) => (Array.isArray(s.enum) ? s.enum.filter((v): v is string => typeof v === "string") : []));
    const named = names.find((name) => listed.includes(name));
    if (named !== undefined) {
      clues.set(property, { value: named, strength: 2 });
      continue;
    }
    // A free string with an event property's name, unless the documented example says it holds something else.
    const exampleValue = example !== undefined ? ownProperty(example, property) : undefined;
    const contradicted = typeof exampleValue === "string" && !names.includes(exampleValue);
    if (EVENT_PROPERTY_NAMES.includes(property) && listed.length === 0 && schemas.length > 0 && schemas.every(isStringSchema) && !contradicted) {
      clues.set(property, { value: hook.eventType, strength: 1 });
    }
  }
  return clues;
}

/** The event header each webhook declares, with the value its deliveries carry there (GitHub: `x-github.subcategory`). */
function headerClues(ctx: SchemaReader, hook: Webhook, specHeaders: ReadonlySet<string>): Map<string, Clue> {
  const clues = new Map<string, Clue>();
  // GitHub's header carries a name derived from the key even where a webhook does not declare it.
  for (const name of specHeaders) if (/github/i.test(name)) clues.set(name, { value: githubEvent(hook), strength: hook.eventHeader ? 3 : 1 });
  for (const parameter of hook.parameters) {
    if (parameter.in !== "header" || !EVENT_HEADER.test(parameter.name)) continue;
    const schema = ctx.deref(parameter.schema, []);
    const pinned = isObject(schema) ? (typeof schema.const === "string" ? schema.const : Array.isArray(schema.enum) && schema.enum.length === 1 && typeof schema.enum[0] === "string" ? schema.enum[0] : undefined) : undefined;
    const value = pinned ?? (/github/i.test(parameter.name) ? githubEvent(hook) : undefined);
    if (value !== undefined) clues.set(parameter.name.toLowerCase(), { value, strength: pinned !== undefined || hook.eventHeader ? 3 : 1 });
  }
  return clues;
}

/**
 * The `X-GitHub-Event` of a GitHub webhook: its `x-github.subcategory`, else its key without the action it pins, in
 * GitHub's snake case (`issue-comment-created` with `action: created` is `issue_comment`).
 */
function githubEvent(hook: Webhook): string {
  if (hook.eventHeader) return hook.eventHeader;
  const action = hook.conditions.action;
  const suffix = action === undefined ? "" : `-${action.toLowerCase().replace(/[._-]+/g, "-")}`;
  const name = suffix && hook.key.endsWith(suffix) ? hook.key.slice(0, -suffix.length) : hook.key;
  return name.replace(/-/g, "_");
}

/** Where deliveries name their event, and the value each webhook's deliveries carry there. */
export interface EventSource {
  readonly in: "body" | "header";
  readonly name: string;
}

/**
 * How deliveries of the spec's webhooks are told apart, found from the spec alone: the top-level body property (or
 * event header) whose value differs from webhook to webhook — a `const` or one-value `enum` (OpenAI's `type`), an
 * `enum` listing the webhook's name (Adyen's `type`), a string property named like an event property (Zoom's `event`),
 * an event header (GitHub's `X-GitHub-Event` with its `x-github.subcategory`). Sets each webhook's `eventValue` and
 * adds it to its `wireValues`; warns, with the webhook's pointer, about the ones nothing tells apart.
 * `explicit`: the spec's `x-webhook-event-type`, which is taken as it is.
 */
export function inferEventSource(ctx: SchemaReader, webhooks: Webhook[], explicit: EventSource | undefined): EventSource | undefined {
  const hooks = uniqueByKey(webhooks);
  if (explicit) {
    for (const hook of hooks) hook.eventValue = hook.eventType;
    return explicit;
  }
  // One webhook needs telling apart from nothing: the receiver takes any verified delivery for it.
  if (hooks.length < 2) return undefined;
  const specHeaders = new Set(hooks.flatMap((hook) => hook.parameters.filter((p) => p.in === "header" && EVENT_HEADER.test(p.name)).map((p) => p.name.toLowerCase())));
  const clues = hooks.map((hook) => ({
    hook,
    body: bodyClues(ctx, hook, bodySchemaOf(ctx, hook, ["webhooks", hook.key])),
    header: headerClues(ctx, hook, specHeaders),
  }));

  // Each candidate place, scored by the webhooks it names uniquely (a value no other webhook's deliveries carry
  // there, or the same value told apart by conditions such as GitHub's `action`), then by how sure the clues are.
  let best: { source: EventSource; unique: Set<Webhook>; strength: number; rank: number } | undefined;
  const consider = (source: EventSource, valueOf: (entry: (typeof clues)[number]) => Clue | undefined, rank: number) => {
    const identity = (entry: (typeof clues)[number], clue: Clue) => `${clue.value}\u0000${JSON.stringify(entry.hook.conditions)}`;
    const counts = new Map<string, number>();
    for (const entry of clues) {
      const clue = valueOf(entry);
      if (clue) counts.set(identity(entry, clue), (counts.get(identity(entry, clue)) ?? 0) + 1);
    }
    const unique = new Set<Webhook>();
    let strength = 0;
    for (const entry of clues) {
      const clue = valueOf(entry);
      if (clue && counts.get(identity(entry, clue)) === 1) {
        unique.add(entry.hook);
        strength += clue.strength;
      }
    }
    if (unique.size === 0) return;
    if (!best || unique.size > best.unique.size || (unique.size === best.unique.size && (strength > best.strength || (strength === best.strength && rank < best.rank)))) {
      best = { source, unique, strength, rank };
    }
  };
  const bodyNames = new Set(clues.flatMap((entry) => [...entry.body.keys()]));
  for (const name of bodyNames) {
    const known = EVENT_PROPERTY_NAMES.indexOf(name);
    // `action` alone repeats across events (GitHub's `opened`): it is a condition, never the event's name.
    if (name === "action") continue;
    consider({ in: "body", name }, (entry) => entry.body.get(name), known < 0 ? EVENT_PROPERTY_NAMES.length : known);
  }
  const headerNames = new Set(clues.flatMap((entry) => [...entry.header.keys()]));
  for (const name of headerNames) {
    const written = hooks.flatMap((hook) => hook.parameters).find((p) => p.in === "header" && p.name.toLowerCase() === name)!.name;
    consider({ in: "header", name: written }, (entry) => entry.header.get(name), -1);
  }

  const chosen = best as { source: EventSource; unique: Set<Webhook> } | undefined;
  for (const entry of clues) {
    const clue = chosen ? (chosen.source.in === "body" ? entry.body.get(chosen.source.name) : entry.header.get(chosen.source.name.toLowerCase())) : undefined;
    if (!clue || !chosen!.unique.has(entry.hook)) continue;
    entry.hook.eventValue = clue.value;
    if (!entry.hook.wireValues.includes(clue.value)) entry.hook.wireValues.push(clue.value);
  }
  warnUntold(ctx, hooks.filter((hook) => !chosen?.unique.has(hook)), chosen?.source);
  return chosen?.source;
}

function warnUntold(ctx: SchemaReader, untold: Webhook[], source: EventSource | undefined): void {
  const where = source ? `the ${source.in === "body" ? "body's" : "header"} \`${source.name}\`` : "the body's `type`";
  const hint =
    'tell the receiver where deliveries name their event: `eventType: { in: "body", name: "event" }` (or `{ in: "header", name: "x-vendor-event" }`) ' +
    "in createWebhookHandler's options or the config's `webhooks`, or `x-webhook-event-type` in the spec";
  for (const hook of untold.slice(0, MAX_WARNINGS)) {
    ctx.warn(
      `nothing in the spec tells deliveries of this webhook from the others' (no const or one-value enum on a property like type or event, no event header): the receiver expects ${JSON.stringify(hook.eventType)} in ${where}`,
      ["webhooks", hook.key],
      hint,
    );
  }
  if (untold.length > MAX_WARNINGS) {
    ctx.warn(`and ${untold.length - MAX_WARNINGS} more webhooks nothing in the spec tells apart (the first ones are named above)`, ["webhooks"], hint);
  }
}

function uniqueByKey(webhooks: Webhook[]): Webhook[] {
  const seen = new Set<string>();
  return webhooks.filter((hook) => !seen.has(hook.key) && seen.add(hook.key));
}
