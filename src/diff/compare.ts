/**
 * The diff engine: two bundled OpenAPI documents in, the API-level changes between them out, each classified as
 * breaking for clients, for servers, both, or neither. Pure: no file system, no clock.
 *
 * Operations are matched by method and path (parameter names left out, so renaming `{id}` to `{petId}` is a rename,
 * not a removal and an addition), then by operationId (a moved operation); webhooks by name. Everything reached
 * from a matched pair (parameters, bodies, responses, headers, security, servers, and schemas through `$ref`s) is
 * compared; descriptions, summaries, examples, tags and extensions are not.
 */
import { child, deref, isObject, operationsOf, resolvePointer, type Json, type JsonObject, type Loc, type OperationView, type ParameterView } from "./document.js";
import type { Breaks, Change, DiffResult, Direction, RuleId } from "./model.js";
import { breaksFor, canonical, forEachRef, sameJson, SchemaDiffer, show, type Effect, type Recorder } from "./schema.js";

/** Compares two bundled documents (as `loadSpec` returns them). */
export function diffDocuments(oldDoc: JsonObject, newDoc: JsonObject): DiffResult {
  const collector = new Collector();
  const schemas = new SchemaDiffer(oldDoc, newDoc, collector);
  const differ = new DocumentDiffer(oldDoc, newDoc, collector, schemas);
  differ.run();
  const info = (doc: JsonObject) => (isObject(doc.info) && typeof doc.info.version === "string" ? doc.info.version : undefined);
  return { changes: collector.finish(), versions: { old: info(oldDoc), new: info(newDoc) } };
}

const DOCUMENT = "document";
const operationOwner = (label: string) => `op:${label}`;

/** Gathers changes (once each) and which operations reach them. */
class Collector implements Recorder {
  private readonly changes = new Map<string, { change: Omit<Change, "operations">; owners: Set<string> }>();
  private readonly edges = new Map<string, Set<string>>();
  private readonly roots = new Map<string, string>(); // owner → operation label

  root(label: string): string {
    const owner = operationOwner(label);
    this.roots.set(owner, label);
    return owner;
  }

  add(owner: string, change: Omit<Change, "operations">): void {
    const key = [change.rule, change.old, change.new, change.direction ?? "", change.subject, change.message].join("\u0000");
    const entry = this.changes.get(key);
    if (entry) {
      entry.owners.add(owner);
      entry.change.breaking = { client: entry.change.breaking.client || change.breaking.client, server: entry.change.breaking.server || change.breaking.server };
    } else this.changes.set(key, { change, owners: new Set([owner]) });
  }

  reach(from: string, to: string): void {
    let targets = this.edges.get(from);
    if (!targets) this.edges.set(from, (targets = new Set()));
    targets.add(to);
  }

  finish(): Change[] {
    // Which operations reach each owner: a walk from every operation over the `$ref` pairs it reached.
    const byOwner = new Map<string, Set<string>>();
    const withChanges = new Set([...this.changes.values()].flatMap((entry) => [...entry.owners]));
    for (const [owner, label] of this.roots) {
      const seen = new Set<string>([owner]);
      const stack = [owner];
      while (stack.length > 0) {
        const current = stack.pop()!;
        if (withChanges.has(current)) {
          let labels = byOwner.get(current);
          if (!labels) byOwner.set(current, (labels = new Set()));
          labels.add(label);
        }
        for (const next of this.edges.get(current) ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            stack.push(next);
          }
        }
      }
    }
    const result: Change[] = [];
    for (const { change, owners } of this.changes.values()) {
      const operations = new Set<string>();
      for (const owner of owners) for (const label of byOwner.get(owner) ?? []) operations.add(label);
      // A change no operation or webhook reaches (a schema only other schemas of no operation use) is not an API change.
      if (operations.size === 0 && !owners.has(DOCUMENT)) continue;
      result.push({ ...change, operations: [...operations].sort(compareText) });
    }
    return result.sort(compareChanges);
  }
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function compareChanges(a: Change, b: Change): number {
  const rank = (c: Change) => (c.breaking.client && c.breaking.server ? 0 : c.breaking.client ? 1 : c.breaking.server ? 2 : 3);
  return rank(a) - rank(b) || compareText(a.subject, b.subject) || compareText(a.rule, b.rule) || compareText(a.new, b.new) || compareText(a.old, b.old) || compareText(a.message, b.message);
}

interface OperationContext {
  owner: string;
  label: string;
  /** Direction of what the caller sends (request parameters and bodies): `response` for a webhook, whose payload the API sends. */
  sent: Direction;
  /** Direction of the answers (responses). */
  answered: Direction;
}

class DocumentDiffer {
  constructor(
    private readonly oldDoc: JsonObject,
    private readonly newDoc: JsonObject,
    private readonly collector: Collector,
    private readonly schemas: SchemaDiffer,
  ) {}

  run(): void {
    this.compareServers({ node: this.oldDoc.servers, pointer: "/servers" }, { node: this.newDoc.servers, pointer: "/servers" }, DOCUMENT, "servers");
    const before = operationsOf(this.oldDoc);
    const after = operationsOf(this.newDoc);
    const { pairs, removed, added } = matchOperations(before, after);
    for (const [a, b] of pairs) this.compareOperation(a, b);
    for (const op of removed) {
      const owner = this.collector.root(op.label);
      const webhook = op.kind === "webhook";
      this.add(owner, webhook ? "webhook-removed" : "operation-removed", { client: true, server: false }, op.label, webhook ? "webhook removed" : "operation removed", op.loc.pointer, parentIn(this.newDoc, op.loc.pointer));
    }
    for (const op of added) {
      const owner = this.collector.root(op.label);
      const webhook = op.kind === "webhook";
      // A new operation is one the implementation does not have yet (the router answers 501); a new webhook is an
      // event receivers may subscribe to, and nobody has to send it before they do.
      this.add(owner, webhook ? "webhook-added" : "operation-added", { client: false, server: !webhook }, op.label, webhook ? "webhook added" : "operation added", parentIn(this.oldDoc, op.loc.pointer), op.loc.pointer);
    }
  }

  private add(owner: string, rule: RuleId, breaking: Breaks | Effect, subject: string, message: string, oldPointer: string, newPointer: string, direction?: Direction): void {
    const breaks = typeof breaking === "string" ? breaksFor(breaking, direction!) : breaking;
    this.collector.add(owner, { rule, breaking: breaks, subject, message, ...(direction ? { direction } : {}), old: oldPointer, new: newPointer });
  }

  /**
   * The same operation, written the same way, using only unchanged components and security schemes: nothing can
   * differ (most operations of a large spec between two versions; skipping them keeps `diff` fast).
   */
  private unchangedOperation(a: OperationView, b: OperationView): boolean {
    if (a.method !== b.method || a.path !== b.path || !sameJson(a.loc.node, b.loc.node)) return false;
    if (a.parameters.length !== b.parameters.length || a.parameters.some((p, i) => p.loc.pointer !== b.parameters[i]!.loc.pointer || !sameJson(p.loc.node, b.parameters[i]!.loc.node))) return false;
    if (!sameJson(a.security.node, b.security.node) || !sameJson(a.servers?.node, b.servers?.node)) return false;
    const refsUnchanged = (node: Json) => {
      let unchanged = true;
      forEachRef(node, (ref) => {
        if (unchanged && !(ref.startsWith("#/components/") && this.schemas.isUnchanged(decodeRef(ref)))) unchanged = false;
      });
      return unchanged;
    };
    if (!refsUnchanged(a.loc.node)) return false;
    for (const parameter of a.parameters) {
      if (!parameter.loc.pointer.startsWith("/components/") ? !refsUnchanged(parameter.loc.node) : !this.schemas.isUnchanged(parameter.loc.pointer)) return false;
    }
    const schemes = Array.isArray(a.security.node) ? a.security.node.filter(isObject).flatMap((requirement) => Object.keys(requirement)) : [];
    return schemes.every((name) => this.schemas.isUnchanged(child("/components/securitySchemes", name)));
  }

  private compareOperation(a: OperationView, b: OperationView): void {
    if (this.unchangedOperation(a, b)) return;
    const owner = this.collector.root(b.label);
    const webhook = b.kind === "webhook";
    const ctx: OperationContext = { owner, label: b.label, sent: webhook ? "response" : "request", answered: webhook ? "request" : "response" };
    const oldOp = a.loc.node as JsonObject;
    const newOp = b.loc.node as JsonObject;
    if (a.key !== b.key) {
      // The router serves a handler by operation, so only clients see the new method or path.
      this.add(owner, "operation-moved", { client: true, server: false }, b.label, `moved from ${a.label} (same operationId ${JSON.stringify(b.operationId)})`, a.loc.pointer, b.loc.pointer);
    }
    if (!webhook && a.operationId !== b.operationId) {
      const message =
        a.operationId === undefined ? `operationId ${JSON.stringify(b.operationId)} added` : b.operationId === undefined ? `operationId ${JSON.stringify(a.operationId)} removed` : `operationId changed from ${JSON.stringify(a.operationId)} to ${JSON.stringify(b.operationId)}`;
      // Same wire, but the generated client method and server handler are named from it.
      this.add(owner, "operation-id-changed", { client: true, server: true }, b.label, `${message}: the generated client method and server handler are renamed (the requests on the wire are the same)`, a.loc.pointer, b.loc.pointer);
    }
    if ((oldOp.deprecated === true) !== (newOp.deprecated === true)) {
      this.add(owner, "operation-deprecated", { client: false, server: false }, b.label, newOp.deprecated === true ? "deprecated" : "no longer deprecated", a.loc.pointer, b.loc.pointer);
    }
    this.compareParameters(a, b, ctx);
    this.compareRequestBody(a, b, ctx);
    this.compareResponses(a, b, ctx);
    this.compareSecurity(a, b, ctx);
    if (a.servers || b.servers) {
      this.compareServers(a.servers ?? { node: this.oldDoc.servers, pointer: "/servers" }, b.servers ?? { node: this.newDoc.servers, pointer: "/servers" }, owner, `${b.label} servers`);
    }
  }

  private compareParameters(a: OperationView, b: OperationView, ctx: OperationContext): void {
    // Path parameters are matched by position: `{id}` → `{petId}` is the same parameter renamed.
    const renamed = new Map<string, string>();
    a.pathParameterOrder.forEach((name, i) => {
      const other = b.pathParameterOrder[i];
      if (other !== undefined && other !== name && a.parameters.some((p) => p.key === `path:${name}`)) renamed.set(`path:${name}`, `path:${other}`);
    });
    const newByKey = new Map(b.parameters.map((p) => [p.key, p]));
    const matched = new Set<string>();
    for (const before of a.parameters) {
      const key = renamed.get(before.key) ?? before.key;
      const after = newByKey.get(key);
      if (!after) {
        const required = isObject(before.loc.node) && (before.loc.node.required === true || before.in === "path");
        this.add(ctx.owner, "parameter-removed", { client: ctx.sent === "request" || required, server: false }, paramSubject(ctx, before), `${required ? "required" : "optional"} ${before.in} parameter removed`, before.loc.pointer, b.loc.pointer, ctx.sent);
        continue;
      }
      matched.add(after.key);
      if (key !== before.key) {
        this.add(ctx.owner, "path-parameter-renamed", { client: true, server: true }, paramSubject(ctx, after), `path parameter renamed from ${JSON.stringify(before.name)} to ${JSON.stringify(after.name)}: the generated client's and handler's \`path\` key changes (the URL on the wire is the same)`, before.loc.pointer, after.loc.pointer);
      }
      this.compareParameter(before, after, ctx);
    }
    for (const after of b.parameters) {
      if (matched.has(after.key)) continue;
      const required = isObject(after.loc.node) && (after.loc.node.required === true || after.in === "path");
      this.add(ctx.owner, "parameter-added", required ? "narrows" : "none", paramSubject(ctx, after), `${required ? "required" : "optional"} ${after.in} parameter added`, a.loc.pointer, after.loc.pointer, ctx.sent);
    }
  }

  private compareParameter(before: ParameterView, after: ParameterView, ctx: OperationContext): void {
    const o = before.loc.node as JsonObject;
    const n = after.loc.node as JsonObject;
    const subject = paramSubject(ctx, after);
    const required = (p: JsonObject, where: string) => p.required === true || where === "path";
    if (required(o, before.in) !== required(n, after.in)) {
      const nowRequired = required(n, after.in);
      this.add(ctx.owner, "parameter-required", nowRequired ? "narrows" : "widens", subject, nowRequired ? "became required" : "became optional", before.loc.pointer, after.loc.pointer, ctx.sent);
    }
    const serialization = (p: JsonObject, where: string) => {
      const style = typeof p.style === "string" ? p.style : where === "query" || where === "cookie" ? "form" : "simple";
      const explode = typeof p.explode === "boolean" ? p.explode : style === "form";
      return { style, explode, allowReserved: p.allowReserved === true };
    };
    const s1 = serialization(o, before.in);
    const s2 = serialization(n, after.in);
    if (canonical(s1) !== canonical(s2)) {
      const parts = (["style", "explode", "allowReserved"] as const).filter((k) => s1[k] !== s2[k]).map((k) => `${k} ${String(s1[k])} → ${String(s2[k])}`);
      // Written one way and read another: both sides must change.
      this.add(ctx.owner, "parameter-serialization-changed", { client: true, server: true }, subject, `serialization changed: ${parts.join(", ")}`, before.loc.pointer, after.loc.pointer, ctx.sent);
    }
    if ((o.deprecated === true) !== (n.deprecated === true)) {
      this.add(ctx.owner, "parameter-deprecated", { client: false, server: false }, subject, n.deprecated === true ? "deprecated" : "no longer deprecated", before.loc.pointer, after.loc.pointer, ctx.sent);
    }
    const schemaOf = (loc: Loc): Loc => {
      const node = loc.node as JsonObject;
      if (node.schema !== undefined) return { node: node.schema, pointer: child(loc.pointer, "schema") };
      if (isObject(node.content)) {
        const [mediaType, media] = Object.entries(node.content)[0] ?? [];
        if (mediaType !== undefined && isObject(media) && media.schema !== undefined) return { node: media.schema, pointer: child(loc.pointer, "content", mediaType, "schema") };
      }
      return { node: {}, pointer: loc.pointer };
    };
    this.schemas.compare(schemaOf(before.loc), schemaOf(after.loc), { direction: ctx.sent, owner: ctx.owner, subject });
  }

  private compareRequestBody(a: OperationView, b: OperationView, ctx: OperationContext): void {
    const oldOp = a.loc.node as JsonObject;
    const newOp = b.loc.node as JsonObject;
    const subject = `${ctx.label} request body`;
    const before = oldOp.requestBody === undefined ? undefined : deref(this.oldDoc, { node: oldOp.requestBody, pointer: child(a.loc.pointer, "requestBody") });
    const after = newOp.requestBody === undefined ? undefined : deref(this.newDoc, { node: newOp.requestBody, pointer: child(b.loc.pointer, "requestBody") });
    const required = (loc?: Loc) => isObject(loc?.node) && loc.node.required === true;
    if (!before && !after) return;
    if (!before) {
      this.add(ctx.owner, "request-body-added", required(after) ? "narrows" : "none", subject, `${required(after) ? "required" : "optional"} request body added`, a.loc.pointer, after!.pointer, ctx.sent);
      return;
    }
    if (!after) {
      this.add(ctx.owner, "request-body-removed", { client: ctx.sent === "request" || required(before), server: false }, subject, "request body removed", before.pointer, b.loc.pointer, ctx.sent);
      return;
    }
    if (required(before) !== required(after)) {
      this.add(ctx.owner, "request-body-required", required(after) ? "narrows" : "widens", subject, required(after) ? "became required" : "became optional", before.pointer, after.pointer, ctx.sent);
    }
    this.compareContent(before, after, ctx, subject, ctx.sent, "body");
  }

  /**
   * Media types of a request body (`body`) or a response (`response`). A body media type added is one more the
   * reader must accept; removed, one the writer may no longer send. A response media type added is compatible (a
   * client asks for what it reads), removed breaks the client that asked for it.
   */
  private compareContent(before: Loc, after: Loc, ctx: OperationContext, subject: string, direction: Direction, kind: "body" | "response"): void {
    const content = (loc: Loc) => {
      const map = new Map<string, Loc>();
      const node = (loc.node as JsonObject).content;
      if (isObject(node)) for (const [mediaType, media] of Object.entries(node)) map.set(mediaKey(mediaType), { node: media, pointer: child(loc.pointer, "content", mediaType) });
      return map;
    };
    const o = content(before);
    const n = content(after);
    for (const [key, media] of o) {
      if (n.has(key)) continue;
      const breaking = kind === "body" ? breaksFor("narrows", direction) : breaksFor("widens", direction);
      this.add(ctx.owner, "media-type-removed", breaking, `${subject} (${key})`, "media type removed", media.pointer, child(after.pointer, "content"), direction);
    }
    for (const [key, media] of n) {
      if (o.has(key)) continue;
      const breaking = kind === "body" ? breaksFor("widens", direction) : { client: false, server: false };
      this.add(ctx.owner, "media-type-added", breaking, `${subject} (${key})`, "media type added", child(before.pointer, "content"), media.pointer, direction);
    }
    for (const [key, m1] of o) {
      const m2 = n.get(key);
      if (!m2) continue;
      const schema = (loc: Loc, side: JsonObject): Loc => {
        const media = deref(side, loc);
        const node = media.node as JsonObject;
        if (isObject(node) && node.schema !== undefined) return { node: node.schema, pointer: child(media.pointer, "schema") };
        if (isObject(node) && node.itemSchema !== undefined) return { node: { type: "array", items: node.itemSchema }, pointer: child(media.pointer, "itemSchema") };
        return { node: {}, pointer: media.pointer };
      };
      this.schemas.compare(schema(m1, this.oldDoc), schema(m2, this.newDoc), { direction, owner: ctx.owner, subject: `${subject} (${key})` });
    }
  }

  private compareResponses(a: OperationView, b: OperationView, ctx: OperationContext): void {
    const responses = (op: OperationView, doc: JsonObject) => {
      const map = new Map<string, Loc>();
      const node = (op.loc.node as JsonObject).responses;
      if (isObject(node)) {
        for (const [status, response] of Object.entries(node)) {
          if (!status.startsWith("x-")) map.set(status.toUpperCase() === "DEFAULT" ? "default" : status.toUpperCase(), deref(doc, { node: response, pointer: child(op.loc.pointer, "responses", status) }));
        }
      }
      return map;
    };
    const o = responses(a, this.oldDoc);
    const n = responses(b, this.newDoc);
    const hasSuccess = (map: Map<string, Loc>) => [...map.keys()].some(isSuccess);
    for (const [status, response] of o) {
      if (n.has(status)) continue;
      // The writer (the server) may no longer answer with it.
      this.add(ctx.owner, "response-removed", breaksFor("narrows", ctx.answered), `${ctx.label} response ${status}`, "response removed", response.pointer, child(b.loc.pointer, "responses"), ctx.answered);
    }
    for (const [status, response] of n) {
      if (o.has(status)) continue;
      // A success the client does not know breaks it; an error status is one more of the errors clients handle anyway.
      const success = isSuccess(status) || (status === "default" && !hasSuccess(n));
      this.add(ctx.owner, "response-added", success ? breaksFor("widens", ctx.answered) : "none", `${ctx.label} response ${status}`, `${success ? "success" : "error"} response added`, child(a.loc.pointer, "responses"), response.pointer, ctx.answered);
    }
    for (const [status, before] of o) {
      const after = n.get(status);
      if (!after) continue;
      const subject = `${ctx.label} response ${status}`;
      this.compareHeaders(before, after, ctx, subject);
      this.compareContent(before, after, ctx, subject, ctx.answered, "response");
    }
  }

  private compareHeaders(before: Loc, after: Loc, ctx: OperationContext, subject: string): void {
    const headers = (loc: Loc, doc: JsonObject) => {
      const map = new Map<string, { name: string; loc: Loc }>();
      const node = (loc.node as JsonObject).headers;
      if (isObject(node)) {
        for (const [name, header] of Object.entries(node)) {
          if (name.toLowerCase() === "content-type") continue; // described by the media type, ignored in headers
          map.set(name.toLowerCase(), { name, loc: deref(doc, { node: header, pointer: child(loc.pointer, "headers", name) }) });
        }
      }
      return map;
    };
    const o = headers(before, this.oldDoc);
    const n = headers(after, this.newDoc);
    const required = (loc: Loc) => isObject(loc.node) && loc.node.required === true;
    const direction = ctx.answered;
    for (const [key, h] of o) {
      if (n.has(key)) continue;
      this.add(ctx.owner, "response-header-removed", required(h.loc) ? breaksFor("widens", direction) : "none", `${subject} header ${h.name}`, `${required(h.loc) ? "required" : "optional"} header removed`, h.loc.pointer, after.pointer, direction);
    }
    for (const [key, h] of n) {
      if (o.has(key)) continue;
      this.add(ctx.owner, "response-header-added", required(h.loc) ? "narrows" : "none", `${subject} header ${h.name}`, `${required(h.loc) ? "required" : "optional"} header added`, before.pointer, h.loc.pointer, direction);
    }
    for (const [key, h1] of o) {
      const h2 = n.get(key);
      if (!h2) continue;
      const headerSubject = `${subject} header ${h2.name}`;
      if (required(h1.loc) !== required(h2.loc)) {
        this.add(ctx.owner, "response-header-required", required(h2.loc) ? "narrows" : "widens", headerSubject, required(h2.loc) ? "became required" : "became optional", h1.loc.pointer, h2.loc.pointer, direction);
      }
      const schema = (loc: Loc): Loc => {
        const node = loc.node as JsonObject;
        if (node.schema !== undefined) return { node: node.schema, pointer: child(loc.pointer, "schema") };
        return { node: {}, pointer: loc.pointer };
      };
      this.schemas.compare(schema(h1.loc), schema(h2.loc), { direction, owner: ctx.owner, subject: headerSubject });
    }
  }

  /**
   * Security is compared as the set of ways to authenticate (alternatives), each a set of schemes with scopes.
   * Fewer ways, more schemes or more scopes: fewer requests are accepted, which breaks whoever sends them (clients;
   * for a webhook, the API that delivers it); more ways, fewer scopes or no credentials needed at all: whoever
   * receives them must accept requests it used to refuse.
   */
  private compareSecurity(a: OperationView, b: OperationView, ctx: OperationContext): void {
    const o = alternatives(a.security.node);
    const n = alternatives(b.security.node);
    const subject = `${ctx.label} security`;
    const oldPointer = a.security.pointer;
    const newPointer = b.security.pointer;
    const describe = (alt: Map<string, string[]>) => (alt.size === 0 ? "no credentials" : [...alt.keys()].join(" + "));
    const needsAuth = (alts: Map<string, string[]>[]) => alts.length > 0 && !alts.some((alt) => alt.size === 0);
    if (!needsAuth(o) && needsAuth(n)) {
      this.add(ctx.owner, "security-added", "narrows", subject, `now requires credentials: ${n.map(describe).join(" or ")}`, oldPointer, newPointer, ctx.sent);
      return;
    }
    if (needsAuth(o) && !needsAuth(n)) {
      this.add(ctx.owner, "security-removed", "widens", subject, `no longer requires credentials (was ${o.map(describe).join(" or ")})`, oldPointer, newPointer, ctx.sent);
      return;
    }
    if (!needsAuth(o)) return;
    const schemeDef = (doc: JsonObject, name: string) => {
      const schemes = isObject(doc.components) && isObject(doc.components.securitySchemes) ? doc.components.securitySchemes : {};
      const loc = deref(doc, { node: schemes[name], pointer: child("/components/securitySchemes", name) });
      return loc;
    };
    const shape = (doc: JsonObject, alt: Map<string, string[]>) =>
      canonical([...alt.keys()].map((name) => schemeShape(schemeDef(doc, name).node)).sort());
    const remaining = [...n];
    const pairs: [Map<string, string[]>, Map<string, string[]>][] = [];
    const unmatched: Map<string, string[]>[] = [];
    for (const alt of o) {
      const names = canonical([...alt.keys()].sort());
      let index = remaining.findIndex((other) => canonical([...other.keys()].sort()) === names);
      if (index === -1) index = remaining.findIndex((other) => shape(this.newDoc, other) === shape(this.oldDoc, alt));
      if (index === -1) unmatched.push(alt);
      else pairs.push([alt, remaining.splice(index, 1)[0]!]);
    }
    for (const alt of unmatched) this.add(ctx.owner, "security-alternative-removed", "narrows", subject, `no longer accepts ${describe(alt)}`, oldPointer, newPointer, ctx.sent);
    for (const alt of remaining) this.add(ctx.owner, "security-alternative-added", "widens", subject, `also accepts ${describe(alt)}`, oldPointer, newPointer, ctx.sent);
    for (const [before, after] of pairs) {
      const oldNames = [...before.keys()];
      const newNames = [...after.keys()];
      // Schemes paired by name, else (renamed) by definition.
      const partner = new Map<string, string>();
      for (const name of oldNames) if (after.has(name)) partner.set(name, name);
      for (const name of oldNames) {
        if (partner.has(name)) continue;
        const candidate = newNames.find((other) => ![...partner.values()].includes(other) && schemeShape(schemeDef(this.newDoc, other).node) === schemeShape(schemeDef(this.oldDoc, name).node));
        if (candidate) partner.set(name, candidate);
      }
      for (const name of oldNames.filter((x) => !partner.has(x))) this.add(ctx.owner, "security-removed", "widens", subject, `no longer needs ${name} (with ${describe(after)})`, oldPointer, newPointer, ctx.sent);
      for (const name of newNames.filter((x) => ![...partner.values()].includes(x))) this.add(ctx.owner, "security-added", "narrows", subject, `also needs ${name} (with ${describe(before)})`, oldPointer, newPointer, ctx.sent);
      for (const [oldName, newName] of partner) {
        const s1 = new Set(before.get(oldName));
        const s2 = new Set(after.get(newName));
        const more = [...s2].filter((s) => !s1.has(s));
        const fewer = [...s1].filter((s) => !s2.has(s));
        if (more.length > 0) this.add(ctx.owner, "security-scopes-added", "narrows", subject, `${newName} needs more scopes: ${more.join(", ")}`, oldPointer, newPointer, ctx.sent);
        if (fewer.length > 0) this.add(ctx.owner, "security-scopes-removed", "widens", subject, `${newName} needs fewer scopes: no longer ${fewer.join(", ")}`, oldPointer, newPointer, ctx.sent);
        const d1 = schemeDef(this.oldDoc, oldName);
        const d2 = schemeDef(this.newDoc, newName);
        const diff = schemeDifference(d1.node, d2.node);
        if (diff) this.add(ctx.owner, "security-scheme-changed", { client: true, server: true }, `security scheme ${newName}`, diff, d1.pointer, d2.pointer, ctx.sent);
      }
    }
  }

  /** A list of servers: URLs removed break clients that use them; added ones are compatible. */
  private compareServers(before: Loc, after: Loc, owner: string, subject: string): void {
    const servers = (loc: Loc) => {
      const list = Array.isArray(loc.node) && loc.node.length > 0 ? loc.node : [{ url: "/" }];
      return list.map((server, i) => ({ server: isObject(server) ? server : {}, pointer: Array.isArray(loc.node) && loc.node.length > 0 ? child(loc.pointer, i) : loc.pointer }));
    };
    const o = servers(before);
    const n = servers(after);
    const url = (s: JsonObject) => (typeof s.url === "string" ? s.url : "");
    const template = (s: JsonObject) => url(s).replace(/\{[^}]*\}/g, "{}").replace(/\/+$/, "");
    const remaining = [...n];
    const pairs: [(typeof o)[number], (typeof n)[number]][] = [];
    const removed: typeof o = [];
    for (const server of o) {
      let index = remaining.findIndex((other) => url(other.server) === url(server.server));
      if (index === -1) index = remaining.findIndex((other) => template(other.server) === template(server.server));
      if (index === -1) removed.push(server);
      else pairs.push([server, remaining.splice(index, 1)[0]!]);
    }
    const parent = (loc: Loc) => (Array.isArray(loc.node) ? loc.pointer : parentPointer(loc.pointer));
    for (const server of removed) this.add(owner, "server-removed", { client: true, server: false }, subject, `server ${url(server.server)} removed`, server.pointer, parent(after));
    for (const server of remaining) this.add(owner, "server-added", { client: false, server: false }, subject, `server ${url(server.server)} added`, parent(before), server.pointer);
    for (const [s1, s2] of pairs) {
      if (url(s1.server) !== url(s2.server)) {
        this.add(owner, "server-variable-changed", { client: false, server: false }, subject, `server variable renamed: ${url(s1.server)} → ${url(s2.server)}`, s1.pointer, s2.pointer);
      }
      const variables = (s: JsonObject) => (isObject(s.variables) ? s.variables : {});
      const v1 = variables(s1.server);
      const v2 = variables(s2.server);
      for (const name of new Set([...Object.keys(v1), ...Object.keys(v2)])) {
        const a = isObject(v1[name]) ? v1[name] : undefined;
        const b = isObject(v2[name]) ? v2[name] : undefined;
        if (!a || !b) continue; // a renamed variable is reported above with the URL
        const e1 = Array.isArray(a.enum) ? a.enum.map(String) : undefined;
        const e2 = Array.isArray(b.enum) ? b.enum.map(String) : undefined;
        const lost = e1 ? (e2 ? e1.filter((v) => !e2.includes(v)) : []) : e2 ? ["(any value)"] : [];
        const gained = e2 ? (e1 ? e2.filter((v) => !e1.includes(v)) : []) : e1 ? ["(any value)"] : [];
        if (lost.length > 0) this.add(owner, "server-variable-changed", { client: true, server: false }, subject, `server variable ${name} no longer allows ${lost.join(", ")}`, s1.pointer, s2.pointer);
        if (gained.length > 0) this.add(owner, "server-variable-changed", { client: false, server: false }, subject, `server variable ${name} also allows ${gained.join(", ")}`, s1.pointer, s2.pointer);
        if (a.default !== b.default) this.add(owner, "server-variable-changed", { client: false, server: false }, subject, `server variable ${name} default changed from ${show(a.default)} to ${show(b.default)}`, s1.pointer, s2.pointer);
      }
    }
  }
}

function decodeRef(ref: string): string {
  try {
    return decodeURIComponent(ref.slice(1));
  } catch {
    return ref.slice(1);
  }
}

function isSuccess(status: string): boolean {
  return /^[123]/.test(status);
}

/** `application/json; charset=utf-8` and `Application/JSON` are the same media type. */
function mediaKey(mediaType: string): string {
  return mediaType.split(";")[0]!.trim().toLowerCase();
}

function paramSubject(ctx: OperationContext, p: ParameterView): string {
  return `${ctx.label} ${p.in} parameter ${p.name}`;
}

/** Security requirements as alternatives: scheme name → scopes (sorted). */
function alternatives(node: Json): Map<string, string[]>[] {
  if (!Array.isArray(node)) return [];
  return node.filter(isObject).map((requirement) => new Map(Object.entries(requirement).map(([name, scopes]) => [name, Array.isArray(scopes) ? scopes.map(String).sort() : []])));
}

/** The OAuth flows of a scheme, with the URLs that decide where a token comes from (scopes are compared per operation). */
function flowsOf(node: JsonObject): Json {
  if (!isObject(node.flows)) return undefined;
  return Object.fromEntries(Object.entries(node.flows).map(([name, flow]) => [name, isObject(flow) ? { authorizationUrl: flow.authorizationUrl, tokenUrl: flow.tokenUrl } : flow]));
}

/** What decides how a credential is sent, without descriptions. */
function schemeShape(node: Json): string {
  if (!isObject(node)) return "none";
  const flows = flowsOf(node);
  return canonical({
    type: node.type,
    scheme: typeof node.scheme === "string" ? node.scheme.toLowerCase() : node.scheme,
    in: node.in,
    name: node.in === "header" && typeof node.name === "string" ? node.name.toLowerCase() : node.name,
    openIdConnectUrl: node.openIdConnectUrl,
    flows,
  });
}

function schemeDifference(a: Json, b: Json): string | undefined {
  if (schemeShape(a) === schemeShape(b)) return undefined;
  const x = (isObject(a) ? a : {}) as JsonObject;
  const y = (isObject(b) ? b : {}) as JsonObject;
  const parts: string[] = [];
  for (const key of ["type", "scheme", "in", "name", "openIdConnectUrl"]) {
    if (canonical(x[key]) !== canonical(y[key])) parts.push(`${key} ${show(x[key])} → ${show(y[key])}`);
  }
  if (canonical(flowsOf(x)) !== canonical(flowsOf(y))) parts.push("OAuth flows changed");
  return parts.length > 0 ? parts.join(", ") : "changed";
}

/** Matches operations: by method and path (parameter names aside), then by operationId. */
function matchOperations(before: OperationView[], after: OperationView[]) {
  const pairs: [OperationView, OperationView][] = [];
  let left = [...before];
  let right = [...after];
  const take = (key: (op: OperationView) => string | undefined) => {
    const index = new Map<string, OperationView[]>();
    for (const op of right) {
      const k = key(op);
      if (k !== undefined) index.set(k, [...(index.get(k) ?? []), op]);
    }
    const counts = new Map<string, number>();
    for (const op of left) {
      const k = key(op);
      if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
    }
    const taken = new Set<OperationView>();
    for (const op of left) {
      const k = key(op);
      if (k === undefined) continue;
      const candidates = index.get(k);
      // Only unambiguous matches: one on each side.
      if (candidates?.length !== 1 || counts.get(k) !== 1) continue;
      pairs.push([op, candidates[0]!]);
      taken.add(op).add(candidates[0]!);
    }
    left = left.filter((op) => !taken.has(op));
    right = right.filter((op) => !taken.has(op));
  };
  take((op) => `${op.kind} ${op.method} ${op.path}`);
  take((op) => op.key);
  take((op) => (op.operationId === undefined ? undefined : `${op.kind} ${op.operationId}`));
  return { pairs, removed: left, added: right };
}

function parentPointer(pointer: string): string {
  const index = pointer.lastIndexOf("/");
  return index <= 0 ? "" : pointer.slice(0, index);
}

/** The nearest ancestor of `pointer` that exists in `doc` (where something added would go, or was). */
function parentIn(doc: JsonObject, pointer: string): string {
  for (let current = parentPointer(pointer); ; current = parentPointer(current)) {
    if (current === "" || resolvePointer(doc, current) !== undefined) return current;
  }
}
