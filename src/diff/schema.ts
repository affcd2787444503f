/**
 * Structural comparison of two schemas, through `$ref`s: what matters is the set of values each one accepts, not
 * how the document spells it. A component renamed with the same shape, a schema moved into a component, `allOf`
 * pieces merged into one object, 3.0 `nullable` against a 3.1 `type: [..., "null"]` — none of those is a change.
 * Recursive schemas terminate: each pair of schemas reached by `$ref` is compared once per direction, and a pair
 * met again while it is being compared is taken as equal (what differs in it is reported where it is compared).
 *
 * Every difference is classified by what it does to the accepted values and by the direction the data flows
 * (see `breaksFor`): accepting more breaks the reader of that data, accepting less breaks its writer.
 */
import { child, componentName, deref, isObject, schemaSubject, type Json, type JsonObject, type Loc } from "./document.js";
import type { Breaks, Change, Direction, RuleId } from "./model.js";

export type Effect = "widens" | "narrows" | "both" | "none";

/**
 * Who a change to the accepted values breaks. Requests are written by clients and read by servers; responses
 * (and webhook payloads) are written by the server and read by clients. `widens` breaks the reader (it can now
 * get values its code never saw), `narrows` breaks the writer (values it sends may now be invalid).
 */
export function breaksFor(effect: Effect, direction: Direction): Breaks {
  const reader = effect === "widens" || effect === "both";
  const writer = effect === "narrows" || effect === "both";
  return direction === "request" ? { client: writer, server: reader } : { client: reader, server: writer };
}

/** Where changes go. `owner` is what reached them (an operation, or a pair of `$ref`'d schemas). */
export interface Recorder {
  add(owner: string, change: Omit<Change, "operations">): void;
  /** `from` reached the `$ref`'d pair `to`: the operations that reach `from` are affected by what `to` holds. */
  reach(from: string, to: string): void;
}

export interface SchemaContext {
  direction: Direction;
  /** Who reached this schema (see Recorder). */
  owner: string;
  /** Where, in words (see Change.subject). */
  subject: string;
}

const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];

interface Bound {
  value: number;
  exclusive: boolean;
}

/** What a schema accepts, with `allOf` (and one-member `anyOf`/`oneOf`) merged in. */
interface View {
  pointer: string;
  /** Undefined: any type. */
  types?: Set<string>;
  /** Allowed values other than null (null is in `types`); undefined: not restricted. */
  values?: Json[];
  format?: string;
  pattern?: string;
  lower?: Bound;
  upper?: Bound;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  properties: Map<string, Loc>;
  required: Set<string>;
  /** Undefined: not said (any). */
  additional?: Loc | boolean;
  items?: Loc;
  prefixItems?: Loc[];
  variants?: { keyword: "anyOf" | "oneOf"; members: Loc[]; pointer: string };
  not?: Loc;
  readOnly: boolean;
  writeOnly: boolean;
  default?: { value: Json };
}

/** A schema made of several (the same property declared in two `allOf` members): read as their `allOf`. */
const MERGED = Symbol("merged");
type Merged = { [MERGED]: Loc[] };
const isMerged = (node: Json): node is Merged => isObject(node) && MERGED in node;

const COUNT_BOUNDS = ["minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties"] as const;

/** Compares schemas of two documents; one instance per diff, so every `$ref`'d pair is compared once. */
export class SchemaDiffer {
  /** `$ref`'d pairs being or already compared (one met again while being compared is taken as equal). */
  private readonly pairs = new Set<string>();
  private readonly views: [WeakMap<object, View>, WeakMap<object, View>] = [new WeakMap(), new WeakMap()];

  constructor(
    readonly oldDoc: JsonObject,
    readonly newDoc: JsonObject,
    private readonly recorder: Recorder,
  ) {}

  compare(oldLoc: Loc, newLoc: Loc, ctx: SchemaContext): void {
    const o = this.resolve(0, oldLoc);
    const n = this.resolve(1, newLoc);
    // The same component, unchanged down to everything it refers to: nothing to find (most of a large spec).
    if (o.pointer === n.pointer && this.isUnchanged(o.pointer)) return;
    if (o.pointer !== oldLoc.pointer || n.pointer !== newLoc.pointer) {
      // Through a $ref: compare this pair once per direction, and remember who reached it.
      const key = `${ctx.direction}|${o.pointer}|${n.pointer}`;
      this.recorder.reach(ctx.owner, key);
      if (this.pairs.has(key)) return;
      this.pairs.add(key);
      // Named after the new side: a schema inlined where a component was is named where it now is.
      const subject = componentName(n.pointer) ?? ctx.subject;
      this.compareResolved(o, n, { ...ctx, owner: key, subject });
      return;
    }
    this.compareResolved(o, n, ctx);
  }

  private unchanged: Set<string> | undefined;

  /** Whether the pointer is inside a component that is the same, with everything it refers to, in both documents. */
  isUnchanged(pointer: string): boolean {
    const component = componentOf(pointer);
    return component !== undefined && this.unchangedComponents().has(component);
  }

  /**
   * Components (`/components/<section>/<name>`) whose text is the same in both documents and whose `$ref`s only
   * lead to such components: comparing them in any direction finds nothing.
   */
  private unchangedComponents(): Set<string> {
    if (this.unchanged) return this.unchanged;
    const sections = (doc: JsonObject) => (isObject(doc.components) ? doc.components : {});
    const oldSections = sections(this.oldDoc);
    const changed = new Set<string>();
    const referrers = new Map<string, Set<string>>();
    const all: string[] = [];
    for (const [section, entries] of Object.entries(sections(this.newDoc))) {
      if (!isObject(entries)) continue;
      const before = isObject(oldSections[section]) ? oldSections[section] : {};
      for (const [name, node] of Object.entries(entries)) {
        const pointer = child("/components", section, name);
        all.push(pointer);
        if (!Object.prototype.hasOwnProperty.call(before, name) || !sameJson(before[name], node)) {
          changed.add(pointer);
          continue;
        }
        forEachRef(node, (ref) => {
          const target = ref.startsWith("#/components/") ? componentOf(safePointer(ref.slice(1))) : undefined;
          if (target === undefined) changed.add(pointer); // a ref elsewhere: not worth following here
          else {
            let set = referrers.get(target);
            if (!set) referrers.set(target, (set = new Set()));
            set.add(pointer);
          }
        });
      }
    }
    const queue = [...changed];
    while (queue.length > 0) {
      for (const referrer of referrers.get(queue.pop()!) ?? []) {
        if (!changed.has(referrer)) {
          changed.add(referrer);
          queue.push(referrer);
        }
      }
    }
    this.unchanged = new Set(all.filter((pointer) => !changed.has(pointer)));
    return this.unchanged;
  }

  private resolve(side: 0 | 1, loc: Loc): Loc {
    if (isMerged(loc.node)) return loc;
    return deref(side === 0 ? this.oldDoc : this.newDoc, loc);
  }

  private view(side: 0 | 1, loc: Loc): View {
    const node = loc.node;
    const cache = this.views[side];
    if (node !== null && typeof node === "object") {
      const cached = cache.get(node);
      if (cached && cached.pointer === loc.pointer) return cached;
    }
    const built = this.buildView(side, loc, new Set());
    if (node !== null && typeof node === "object") cache.set(node, built);
    return built;
  }

  private buildView(side: 0 | 1, loc: Loc, stack: Set<Json>): View {
    const view: View = { pointer: loc.pointer, properties: new Map(), required: new Set(), readOnly: false, writeOnly: false };
    const node = loc.node;
    if (node === false) {
      view.types = new Set();
      return view;
    }
    if (isMerged(node)) return node[MERGED].map((member) => this.buildView(side, this.resolve(side, member), stack)).reduce(mergeViews);
    if (!isObject(node)) return view;
    stack.add(node);

    let types: Set<string> | undefined;
    if (typeof node.type === "string") types = new Set([node.type]);
    else if (Array.isArray(node.type)) types = new Set(node.type.filter((t): t is string => typeof t === "string"));
    let values: Json[] | undefined = Array.isArray(node.enum) ? [...node.enum] : undefined;
    if ("const" in node) values = [node.const];
    let nullable = node.nullable === true;
    if (values !== undefined) {
      if (values.includes(null)) nullable = true;
      if (types === undefined) types = new Set(values.map(jsonType));
      values = values.filter((v) => v !== null);
    }
    if (nullable && types) types.add("null");
    view.types = types;
    view.values = values;
    if (typeof node.format === "string") view.format = node.format;
    if (typeof node.pattern === "string") view.pattern = node.pattern;
    view.lower = bound(node.minimum, node.exclusiveMinimum, true);
    view.upper = bound(node.maximum, node.exclusiveMaximum, false);
    if (typeof node.multipleOf === "number") view.multipleOf = node.multipleOf;
    for (const key of COUNT_BOUNDS) if (typeof node[key] === "number") view[key] = node[key] as number;
    if (node.uniqueItems === true) view.uniqueItems = true;
    view.readOnly = node.readOnly === true;
    view.writeOnly = node.writeOnly === true;
    if ("default" in node) view.default = { value: node.default };

    if (isObject(node.properties)) {
      for (const [name, schema] of Object.entries(node.properties)) view.properties.set(name, { node: schema, pointer: child(loc.pointer, "properties", name) });
    }
    if (Array.isArray(node.required)) for (const name of node.required) if (typeof name === "string") view.required.add(name);
    if (typeof node.additionalProperties === "boolean") view.additional = node.additionalProperties;
    else if (isObject(node.additionalProperties)) view.additional = { node: node.additionalProperties, pointer: child(loc.pointer, "additionalProperties") };
    if (Array.isArray(node.prefixItems)) view.prefixItems = node.prefixItems.map((item, i) => ({ node: item, pointer: child(loc.pointer, "prefixItems", i) }));
    if (Array.isArray(node.items)) view.prefixItems = node.items.map((item, i) => ({ node: item, pointer: child(loc.pointer, "items", i) }));
    else if (node.items !== undefined) view.items = { node: node.items, pointer: child(loc.pointer, "items") };
    if (node.not !== undefined) view.not = { node: node.not, pointer: child(loc.pointer, "not") };

    // allOf members, and a oneOf/anyOf that has one member besides `{type: null}`, are merged into this view.
    const merged: View[] = [];
    if (Array.isArray(node.allOf)) {
      node.allOf.forEach((member, i) => {
        const resolved = this.resolve(side, { node: member, pointer: child(loc.pointer, "allOf", i) });
        if (!stack.has(resolved.node)) merged.push(this.buildView(side, resolved, stack));
      });
    }
    for (const keyword of ["oneOf", "anyOf"] as const) {
      const list = node[keyword];
      if (!Array.isArray(list)) continue;
      const members: Loc[] = [];
      let hasNull = false;
      list.forEach((member, i) => {
        const at = { node: member, pointer: child(loc.pointer, keyword, i) };
        if (isNullSchema(this.resolve(side, at).node)) hasNull = true;
        else members.push(at);
      });
      if (members.length === 1) {
        const resolved = this.resolve(side, members[0]!);
        if (!stack.has(resolved.node)) {
          const only = this.buildView(side, resolved, stack);
          merged.push(hasNull ? withNull(only) : only);
        }
      } else if (members.length > 1) {
        view.variants = { keyword, members, pointer: child(loc.pointer, keyword) };
        if (hasNull && view.types) view.types.add("null");
        if (hasNull) view.variants.members.push({ node: { type: "null" }, pointer: child(loc.pointer, keyword, list.length) });
      }
    }
    stack.delete(node);
    return merged.reduce(mergeViews, view);
  }

  private record(ctx: SchemaContext, rule: RuleId, effect: Effect | Breaks, message: string, oldPointer: string, newPointer: string, subject = ctx.subject): void {
    const breaking = typeof effect === "string" ? breaksFor(effect, ctx.direction) : effect;
    // Inside a component schema a change is named after where it is, so that it reads (and is counted) the same
    // whichever operation reached it.
    const named = schemaSubject(rule.endsWith("-removed") ? oldPointer : newPointer) ?? subject;
    this.recorder.add(ctx.owner, { rule, breaking, subject: named, message, direction: ctx.direction, old: oldPointer, new: newPointer });
  }

  private compareResolved(oldLoc: Loc, newLoc: Loc, ctx: SchemaContext): void {
    // The same text: only what its `$ref`s point at can differ (the common case, and much cheaper to find out).
    if (!isMerged(oldLoc.node) && !isMerged(newLoc.node) && sameJson(oldLoc.node, newLoc.node) && this.compareRefsOnly(oldLoc, newLoc, ctx)) return;
    const o = this.view(0, oldLoc);
    const n = this.view(1, newLoc);

    if (o.variants || n.variants) {
      if (o.variants && n.variants) this.compareVariants(o, n, ctx);
      else {
        this.compareAgainstVariants(oldLoc, o, newLoc, n, ctx);
        return;
      }
    }

    const typesChanged = this.compareTypes(o, n, ctx);
    const both = (type: string) => allows(o.types, type) && allows(n.types, type);
    this.compareValues(o, n, ctx);
    if (!typesChanged || o.format !== undefined || n.format !== undefined) this.compareFormat(o, n, ctx, typesChanged);
    if (both("string")) {
      this.comparePattern(o, n, ctx);
      this.compareCount(o, n, ctx, "minLength", "maxLength");
    }
    if (both("number") || both("integer")) this.compareNumeric(o, n, ctx);
    if (both("array")) {
      this.compareCount(o, n, ctx, "minItems", "maxItems");
      if (!o.uniqueItems !== !n.uniqueItems) {
        this.record(ctx, "constraint-changed", n.uniqueItems ? "narrows" : "widens", n.uniqueItems ? "uniqueItems added" : "uniqueItems removed", o.pointer, n.pointer);
      }
      this.compareItems(o, n, ctx);
    }
    if (both("object")) {
      this.compareCount(o, n, ctx, "minProperties", "maxProperties");
      this.compareProperties(o, n, ctx);
      this.compareAdditional(o, n, ctx);
    }
    if (o.not || n.not) {
      if (!o.not || !n.not || canonical(this.resolve(0, o.not).node) !== canonical(this.resolve(1, n.not).node)) {
        this.record(ctx, "composition-changed", "both", o.not ? (n.not ? "`not` schema changed" : "`not` schema removed") : "`not` schema added", o.pointer, n.pointer);
      }
    }
    if (ctx.direction === "request" && (o.default || n.default) && canonical(o.default?.value) !== canonical(n.default?.value)) {
      const message = !o.default
        ? `default ${show(n.default!.value)} added`
        : !n.default
          ? `default ${show(o.default.value)} removed`
          : `default changed from ${show(o.default.value)} to ${show(n.default.value)}`;
      this.record(ctx, "default-changed", "none", message, o.pointer, n.pointer);
    }
  }

  /**
   * For two schemas with the same text: compares the pairs their `$ref`s point at, in the positions the full
   * comparison would reach them. Returns false (compare in full) when a property is hidden (readOnly in a request,
   * writeOnly in a response) on one side only, which a `$ref` target can decide.
   */
  private compareRefsOnly(oldLoc: Loc, newLoc: Loc, ctx: SchemaContext): boolean {
    const node = oldLoc.node;
    if (!isObject(node) || !hasRefs(node)) return true;
    const properties = isObject(node.properties) ? Object.keys(node.properties) : [];
    for (const name of properties) {
      const at = (loc: Loc): Loc => ({ node: (loc.node as { properties: JsonObject }).properties[name], pointer: child(loc.pointer, "properties", name) });
      if (this.hidden(0, at(oldLoc), ctx.direction) !== this.hidden(1, at(newLoc), ctx.direction)) return false;
    }
    const visit = (a: Loc, b: Loc, subject: string) => {
      if (isObject(a.node) && typeof a.node.$ref === "string") this.compare(a, b, { ...ctx, subject });
      else if (isObject(a.node) && !this.compareRefsOnly(a, b, { ...ctx, subject })) this.compareResolved(a, b, { ...ctx, subject });
    };
    const at = (loc: Loc, ...path: (string | number)[]): Loc => {
      let value: Json = loc.node;
      for (const segment of path) value = (value as Record<string | number, Json>)[segment];
      return { node: value, pointer: child(loc.pointer, ...path) };
    };
    for (const name of properties) {
      if (this.hidden(0, at(oldLoc, "properties", name), ctx.direction)) continue;
      visit(at(oldLoc, "properties", name), at(newLoc, "properties", name), ctx.subject ? `${ctx.subject}.${name}` : name);
    }
    if (isObject(node.additionalProperties)) visit(at(oldLoc, "additionalProperties"), at(newLoc, "additionalProperties"), `${ctx.subject}{}`);
    if (isObject(node.items)) visit(at(oldLoc, "items"), at(newLoc, "items"), `${ctx.subject}[]`);
    for (const keyword of ["prefixItems", "items", "allOf", "anyOf", "oneOf"]) {
      const list = node[keyword];
      if (Array.isArray(list)) list.forEach((_, i) => visit(at(oldLoc, keyword, i), at(newLoc, keyword, i), keyword.endsWith("Of") ? ctx.subject : `${ctx.subject}[${i}]`));
    }
    if (isObject(node.not)) visit(at(oldLoc, "not"), at(newLoc, "not"), ctx.subject);
    return true;
  }

  /** Whether a property is left out in this direction: readOnly in requests, writeOnly in responses. */
  private hidden(side: 0 | 1, loc: Loc, direction: Direction): boolean {
    const flag = direction === "request" ? "readOnly" : "writeOnly";
    const doc = side === 0 ? this.oldDoc : this.newDoc;
    const resolved = (node: Json) => deref(doc, { node, pointer: "" }).node;
    let current = loc.node;
    for (let hops = 0; hops < 16 && isObject(current); hops++) {
      if (current[flag] === true) return true;
      if (Array.isArray(current.allOf) && current.allOf.some((member) => (resolved(member) as JsonObject | undefined)?.[flag] === true)) return true;
      if (typeof current.$ref !== "string") return false;
      current = resolved({ $ref: current.$ref });
    }
    return false;
  }

  /** Returns true when the types differ in more than nullability (then type-specific keywords are not compared). */
  private compareTypes(o: View, n: View, ctx: SchemaContext): boolean {
    const effect = typeEffect(o.types, n.types);
    if (effect === "none") return false;
    const base = (types?: Set<string>) => (types ? [...types].filter((t) => t !== "null").sort() : undefined);
    const oldBase = base(o.types);
    const newBase = base(n.types);
    const sameBase = canonical(oldBase) === canonical(newBase);
    if (sameBase) {
      const nullable = allows(n.types, "null");
      this.record(ctx, "type-changed", effect, nullable ? "became nullable" : "is no longer nullable", o.pointer, n.pointer);
      return false;
    }
    this.record(ctx, "type-changed", effect, `type changed from ${describeTypes(o.types)} to ${describeTypes(n.types)}`, o.pointer, n.pointer);
    return !(effect === "widens" && oldBase?.every((t) => allows(n.types, t)));
  }

  private compareValues(o: View, n: View, ctx: SchemaContext): void {
    if (!o.values && !n.values) return;
    if (!o.values) {
      this.record(ctx, "enum-added", "narrows", `restricted to ${list(n.values!)}`, o.pointer, n.pointer);
      return;
    }
    if (!n.values) {
      this.record(ctx, "enum-removed", "widens", `no longer restricted to ${list(o.values)}`, o.pointer, n.pointer);
      return;
    }
    const oldSet = new Set(o.values.map(canonical));
    const newSet = new Set(n.values.map(canonical));
    const added = n.values.filter((v) => !oldSet.has(canonical(v)));
    const removed = o.values.filter((v) => !newSet.has(canonical(v)));
    if (added.length > 0) this.record(ctx, "enum-values-added", "widens", `enum value${added.length === 1 ? "" : "s"} ${list(added)} added`, o.pointer, n.pointer);
    if (removed.length > 0) this.record(ctx, "enum-values-removed", "narrows", `enum value${removed.length === 1 ? "" : "s"} ${list(removed)} removed`, o.pointer, n.pointer);
  }

  private compareFormat(o: View, n: View, ctx: SchemaContext, typesChanged: boolean): void {
    if (o.format === n.format) return;
    if (typesChanged && (o.format === undefined || n.format === undefined)) return;
    const effect: Effect =
      o.format === undefined ? "narrows" : n.format === undefined ? "widens" : (FORMAT_WIDENINGS[o.format] === n.format ? "widens" : FORMAT_WIDENINGS[n.format] === o.format ? "narrows" : "both");
    const message = o.format === undefined ? `format ${n.format} added` : n.format === undefined ? `format ${o.format} removed` : `format changed from ${o.format} to ${n.format}`;
    this.record(ctx, "format-changed", effect, message, o.pointer, n.pointer);
  }

  private comparePattern(o: View, n: View, ctx: SchemaContext): void {
    if (o.pattern === n.pattern) return;
    const effect: Effect = o.pattern === undefined ? "narrows" : n.pattern === undefined ? "widens" : "both";
    const message =
      o.pattern === undefined ? `pattern ${show(n.pattern)} added` : n.pattern === undefined ? `pattern ${show(o.pattern)} removed` : `pattern changed from ${show(o.pattern)} to ${show(n.pattern)}`;
    this.record(ctx, "pattern-changed", effect, message, o.pointer, n.pointer);
  }

  private compareCount(o: View, n: View, ctx: SchemaContext, min: (typeof COUNT_BOUNDS)[number], max: (typeof COUNT_BOUNDS)[number]): void {
    for (const [keyword, isMin] of [
      [min, true],
      [max, false],
    ] as const) {
      const before = o[keyword];
      const after = n[keyword];
      if (before === after) continue;
      // A lower bound of 0 says nothing.
      if (isMin && (before ?? 0) === (after ?? 0)) continue;
      const tighter = after !== undefined && (before === undefined || (isMin ? after > before : after < before));
      this.record(ctx, "constraint-changed", tighter ? "narrows" : "widens", boundMessage(keyword, before, after), o.pointer, n.pointer);
    }
  }

  private compareNumeric(o: View, n: View, ctx: SchemaContext): void {
    for (const [name, before, after, isLower] of [
      ["minimum", o.lower, n.lower, true],
      ["maximum", o.upper, n.upper, false],
    ] as const) {
      if (canonical(before) === canonical(after)) continue;
      let effect: Effect;
      if (!before) effect = "narrows";
      else if (!after) effect = "widens";
      else {
        const diff = isLower ? after.value - before.value : before.value - after.value;
        effect = diff > 0 || (diff === 0 && after.exclusive && !before.exclusive) ? "narrows" : "widens";
      }
      const text = (b?: Bound) => (b ? `${b.value}${b.exclusive ? " (exclusive)" : ""}` : undefined);
      this.record(ctx, "constraint-changed", effect, boundMessage(name, text(before), text(after)), o.pointer, n.pointer);
    }
    if (o.multipleOf !== n.multipleOf) {
      const a = o.multipleOf;
      const b = n.multipleOf;
      const effect: Effect = a === undefined ? "narrows" : b === undefined ? "widens" : isMultiple(b, a) ? "narrows" : isMultiple(a, b) ? "widens" : "both";
      this.record(ctx, "constraint-changed", effect, boundMessage("multipleOf", a, b), o.pointer, n.pointer);
    }
  }

  private compareItems(o: View, n: View, ctx: SchemaContext): void {
    const any = (view: View): Loc => ({ node: {}, pointer: child(view.pointer, "items") });
    if (o.items || n.items) this.compare(o.items ?? any(o), n.items ?? any(n), { ...ctx, subject: `${ctx.subject}[]` });
    const count = Math.max(o.prefixItems?.length ?? 0, n.prefixItems?.length ?? 0);
    for (let i = 0; i < count; i++) {
      const before = o.prefixItems?.[i] ?? { node: {}, pointer: child(o.pointer, "prefixItems", i) };
      const after = n.prefixItems?.[i] ?? { node: {}, pointer: child(n.pointer, "prefixItems", i) };
      this.compare(before, after, { ...ctx, subject: `${ctx.subject}[${i}]` });
    }
  }

  private compareProperties(o: View, n: View, ctx: SchemaContext): void {
    // readOnly properties are not part of requests, writeOnly ones not part of responses.
    const visible = (side: 0 | 1, loc: Loc) => !this.hidden(side, loc, ctx.direction);
    const names = new Set([...o.properties.keys(), ...n.properties.keys()]);
    for (const name of [...names].sort()) {
      const before = o.properties.get(name);
      const after = n.properties.get(name);
      const inOld = before !== undefined && visible(0, before);
      const inNew = after !== undefined && visible(1, after);
      const subject = ctx.subject ? `${ctx.subject}.${name}` : name;
      const wasRequired = o.required.has(name);
      const isRequired = n.required.has(name);
      if (inOld && inNew) {
        if (wasRequired !== isRequired) {
          this.record(ctx, "property-required", isRequired ? "narrows" : "widens", isRequired ? "became required" : "became optional", before.pointer, after.pointer, subject);
        }
        this.compare(before, after, { ...ctx, subject });
      } else if (inNew) {
        const why = before ? ` (no longer ${ctx.direction === "request" ? "readOnly" : "writeOnly"})` : "";
        this.record(ctx, "property-added", isRequired ? "narrows" : "none", `${isRequired ? "required" : "optional"} property added${why}`, before ? before.pointer : o.pointer, after!.pointer, subject);
      } else if (inOld) {
        const why = after ? ` (now ${ctx.direction === "request" ? "readOnly" : "writeOnly"})` : "";
        // What a client sends and the API no longer reads, or a required field a client relies on, is gone.
        const breaking = { client: ctx.direction === "request" || wasRequired, server: false };
        this.record(ctx, "property-removed", breaking, `${wasRequired ? "required" : "optional"} property removed${why}`, before!.pointer, after ? after.pointer : n.pointer, subject);
      }
    }
  }

  private compareAdditional(o: View, n: View, ctx: SchemaContext): void {
    const kind = (value: Loc | boolean | undefined) => (value === undefined || value === true ? "any" : value === false ? "none" : "schema");
    const before = kind(o.additional);
    const after = kind(n.additional);
    if (before === "schema" && after === "schema") {
      this.compare(o.additional as Loc, n.additional as Loc, { ...ctx, subject: `${ctx.subject}{}` });
      return;
    }
    if (before === after) return;
    const effect: Effect = before === "any" || (before === "schema" && after === "none") ? "narrows" : "widens";
    const describe = { any: "any", none: "none (additionalProperties: false)", schema: "a schema" } as const;
    const pointer = (view: View, value: Loc | boolean | undefined) => (typeof value === "object" ? value.pointer : view.pointer);
    this.record(ctx, "additional-properties-changed", effect, `additional properties changed from ${describe[before]} to ${describe[after]}`, pointer(o, o.additional), pointer(n, n.additional));
  }

  /** Both sides are a oneOf/anyOf: pair the variants, compare pairs, report the rest as added or removed. */
  private compareVariants(o: View, n: View, ctx: SchemaContext): void {
    const before = o.variants!;
    const after = n.variants!;
    if (before.keyword !== after.keyword) {
      const effect: Effect = after.keyword === "anyOf" ? "widens" : "narrows";
      this.record(ctx, "composition-changed", effect, `${before.keyword} became ${after.keyword}`, o.pointer, n.pointer);
    }
    const { pairs, removed, added } = this.pairVariants(before.members, after.members, ctx.direction);
    for (const [a, b] of pairs) this.compare(a, b, { ...ctx, subject: `${ctx.subject} (${after.keyword} ${this.variantLabel(1, b)})` });
    for (const member of removed) this.record(ctx, "variant-removed", "narrows", `${before.keyword} variant ${this.variantLabel(0, member)} removed`, member.pointer, after.pointer);
    for (const member of added) this.record(ctx, "variant-added", "widens", `${after.keyword} variant ${this.variantLabel(1, member)} added`, before.pointer, member.pointer);
  }

  /** One side is a oneOf/anyOf, the other a plain schema: the plain one is compared with its best match. */
  private compareAgainstVariants(oldLoc: Loc, o: View, newLoc: Loc, n: View, ctx: SchemaContext): void {
    const oldSide = o.variants ? o.variants.members : [oldLoc];
    const newSide = n.variants ? n.variants.members : [newLoc];
    const keyword = (o.variants ?? n.variants)!.keyword;
    const { pairs, removed, added } = this.pairVariants(oldSide, newSide, ctx.direction, true);
    for (const [a, b] of pairs) this.compare(a, b, ctx);
    for (const member of removed) this.record(ctx, "variant-removed", "narrows", `${keyword} variant ${this.variantLabel(0, member)} removed`, member.pointer, n.pointer);
    for (const member of added) this.record(ctx, "variant-added", "widens", `${keyword} variant ${this.variantLabel(1, member)} added`, o.pointer, member.pointer);
  }

  /**
   * Pairs old and new variants, surest first: the same component; the same text; the same position and shape; the
   * same tag (a title, or properties with a single allowed value, as discriminated unions have); the same shape
   * anywhere; the only one of its type; the last one left on each side. `forcePair` pairs one leftover on each side
   * even when they differ (a plain schema against a oneOf: it is most likely one of its variants).
   */
  private pairVariants(before: Loc[], after: Loc[], direction: Direction, forcePair = false) {
    const pairs: [Loc, Loc][] = [];
    let left = [...before];
    let right = [...after];
    const take = (match: (a: Loc, b: Loc) => boolean, unique = false) => {
      for (const a of [...left]) {
        const candidates = right.filter((candidate) => match(a, candidate));
        if (candidates.length === 0 || (unique && (candidates.length > 1 || left.filter((x) => match(x, candidates[0]!)).length > 1))) continue;
        const b = candidates[0]!;
        pairs.push([a, b]);
        left = left.filter((x) => x !== a);
        right = right.filter((x) => x !== b);
      }
    };
    const name = (side: 0 | 1, loc: Loc) => componentName(this.resolve(side, loc).pointer);
    const text = (side: 0 | 1, loc: Loc) => canonical(this.resolve(side, loc).node);
    const tag = (side: 0 | 1, loc: Loc) => this.variantTag(side, loc);
    // Variants tagged differently (a discriminated union that lost one and gained another) are never the same one.
    const sameTag = (a: Loc, b: Loc) => tag(0, a) === undefined || tag(1, b) === undefined || tag(0, a) === tag(1, b);
    take((a, b) => name(0, a) !== undefined && name(0, a) === name(1, b));
    take((a, b) => text(0, a) === text(1, b), true);
    take((a, b) => before.indexOf(a) === after.indexOf(b) && this.equivalent(a, b, direction));
    take((a, b) => tag(0, a) !== undefined && tag(0, a) === tag(1, b), true);
    if (left.length > 0 && right.length > 0 && left.length * right.length <= 64) take((a, b) => this.equivalent(a, b, direction));
    if (left.length > 0 && right.length > 0) {
      const typeKey = (side: 0 | 1, loc: Loc) => canonical([...(this.view(side, this.resolve(side, loc)).types ?? ["any"])].sort());
      take((a, b) => typeKey(0, a) === typeKey(1, b) && sameTag(a, b), true);
    }
    if ((forcePair || (left.length === 1 && right.length === 1 && sameTag(left[0]!, right[0]!))) && left.length >= 1 && right.length >= 1 && (left.length === 1 || right.length === 1)) {
      pairs.push([left[0]!, right[0]!]);
      left = left.slice(1);
      right = right.slice(1);
    }
    return { pairs, removed: left, added: right };
  }

  /** What names a variant of a union: its title and the properties that allow a single value (`type: {enum: [creation]}`). */
  private variantTag(side: 0 | 1, loc: Loc): string | undefined {
    const resolved = this.resolve(side, loc);
    const view = this.view(side, resolved);
    const tags: string[] = [];
    for (const [property, schema] of view.properties) {
      const values = this.view(side, this.resolve(side, schema)).values;
      if (values?.length === 1) tags.push(`${property}=${canonical(values[0])}`);
    }
    const title = isObject(resolved.node) && typeof resolved.node.title === "string" ? resolved.node.title : undefined;
    if (tags.length === 0 && title === undefined) return undefined;
    return canonical({ title, tags: tags.sort() });
  }

  /** Whether two schemas accept the same values (compared on the side, without reporting anything). */
  private equivalent(a: Loc, b: Loc, direction: Direction): boolean {
    const differ = new SchemaDiffer(this.oldDoc, this.newDoc, {
      add: () => {
        throw DIFFERENT;
      },
      reach: () => {},
    });
    // Same documents: share what is cached about them (views, and which components are unchanged).
    differ.views[0] = this.views[0];
    differ.views[1] = this.views[1];
    differ.unchanged = this.unchangedComponents();
    try {
      differ.compare(a, b, { direction, owner: "", subject: "" });
      return true;
    } catch (error) {
      if (error === DIFFERENT) return false;
      throw error;
    }
  }

  private variantLabel(side: 0 | 1, loc: Loc): string {
    const resolved = this.resolve(side, loc);
    const name = componentName(resolved.pointer);
    if (name) return name;
    const node = resolved.node;
    if (isObject(node) && typeof node.title === "string") return JSON.stringify(node.title);
    const types = this.view(side, resolved).types;
    return `#${loc.pointer.slice(loc.pointer.lastIndexOf("/") + 1)} (${types ? describeTypes(types) : "any"})`;
  }
}

const DIFFERENT = new Error("different");

/** `/components/schemas/Pet/properties/id` → `/components/schemas/Pet`; undefined outside components. */
function componentOf(pointer: string): string | undefined {
  if (!pointer.startsWith("/components/")) return undefined;
  const end = pointer.indexOf("/", pointer.indexOf("/", 12) + 1);
  return end === -1 ? pointer : pointer.slice(0, end);
}

function safePointer(fragment: string): string {
  try {
    return decodeURIComponent(fragment);
  } catch {
    return fragment;
  }
}

const withRefs = new WeakMap<object, boolean>();

/** Whether a `$ref` is anywhere below `node` (cached: equal subtrees without one need no walk at all). */
function hasRefs(node: Json): boolean {
  if (node === null || typeof node !== "object") return false;
  const cached = withRefs.get(node);
  if (cached !== undefined) return cached;
  let found = false;
  if (Array.isArray(node)) found = node.some(hasRefs);
  else for (const key in node) if (key === "$ref" || hasRefs((node as JsonObject)[key])) found = true;
  withRefs.set(node, found);
  return found;
}

/** Calls `visit` with every `$ref` string below `node`. */
export function forEachRef(node: Json, visit: (ref: string) => void): void {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const item of node) forEachRef(item, visit);
    return;
  }
  for (const key in node) {
    const value = (node as JsonObject)[key];
    if (key === "$ref" && typeof value === "string") visit(value);
    else if (value !== null && typeof value === "object") forEachRef(value, visit);
  }
}

const FORMAT_WIDENINGS: Record<string, string> = { int32: "int64", float: "double" };

function jsonType(value: Json): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function isNullSchema(node: Json): boolean {
  if (!isObject(node)) return false;
  if (node.type === "null") return true;
  if (Array.isArray(node.type) && node.type.length === 1 && node.type[0] === "null") return true;
  if ("const" in node && node.const === null) return true;
  return Array.isArray(node.enum) && node.enum.length === 1 && node.enum[0] === null;
}

function withNull(view: View): View {
  return view.types ? { ...view, types: new Set([...view.types, "null"]) } : view;
}

/** `minimum`/`exclusiveMinimum` (3.0: a flag; 3.1: a bound of its own, the tighter of the two holds) as one bound. */
function bound(value: Json, exclusive: Json, lower: boolean): Bound | undefined {
  if (typeof exclusive === "number") {
    if (typeof value !== "number") return { value: exclusive, exclusive: true };
    const exclusiveIsTighter = lower ? exclusive >= value : exclusive <= value;
    return exclusiveIsTighter ? { value: exclusive, exclusive: true } : { value, exclusive: false };
  }
  if (typeof value !== "number") return undefined;
  return { value, exclusive: exclusive === true };
}

/** Whether `value` is a multiple of `of` (every multiple of `value` is then a multiple of `of`). */
function isMultiple(value: number, of: number): boolean {
  const ratio = value / of;
  return Math.abs(ratio - Math.round(ratio)) < 1e-9;
}

/** Is `type` among the allowed types (undefined: all; integer is a number)? */
function allows(types: Set<string> | undefined, type: string): boolean {
  if (!types) return true;
  return types.has(type) || (type === "integer" && types.has("number"));
}

function typeEffect(before: Set<string> | undefined, after: Set<string> | undefined): Effect {
  const widens = (after ? [...after] : ALL_TYPES).some((t) => !allows(before, t));
  const narrows = (before ? [...before] : ALL_TYPES).some((t) => !allows(after, t));
  return widens && narrows ? "both" : widens ? "widens" : narrows ? "narrows" : "none";
}

function describeTypes(types: Set<string> | undefined): string {
  if (!types) return "any type";
  if (types.size === 0) return "nothing (false)";
  return [...types].sort((a, b) => (a === "null" ? 1 : b === "null" ? -1 : a < b ? -1 : 1)).join(" | ");
}

/** Intersection of two views (both must hold): what `allOf` means. */
function mergeViews(a: View, b: View): View {
  const types = a.types && b.types ? new Set([...a.types].filter((t) => allows(b.types, t) || (t === "number" && b.types!.has("integer")))) : (a.types ?? b.types);
  if (types && a.types && b.types && a.types.has("number") && b.types.has("integer")) {
    types.delete("number");
    types.add("integer");
  }
  const values = a.values && b.values ? a.values.filter((v) => b.values!.some((w) => canonical(w) === canonical(v))) : (a.values ?? b.values);
  const properties = new Map(a.properties);
  for (const [name, loc] of b.properties) {
    const existing = properties.get(name);
    properties.set(name, existing ? { node: { [MERGED]: [existing, loc] } as unknown as Json, pointer: existing.pointer } : loc);
  }
  const tighter = (x: Bound | undefined, y: Bound | undefined, lower: boolean): Bound | undefined => {
    if (!x || !y) return x ?? y;
    if (x.value === y.value) return { value: x.value, exclusive: x.exclusive || y.exclusive };
    return (lower ? x.value > y.value : x.value < y.value) ? x : y;
  };
  const minOf = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.min(x, y));
  const maxOf = (x?: number, y?: number) => (x === undefined ? y : y === undefined ? x : Math.max(x, y));
  return {
    pointer: a.pointer,
    types,
    values,
    format: a.format ?? b.format,
    pattern: a.pattern ?? b.pattern,
    lower: tighter(a.lower, b.lower, true),
    upper: tighter(a.upper, b.upper, false),
    multipleOf: a.multipleOf ?? b.multipleOf,
    minLength: maxOf(a.minLength, b.minLength),
    maxLength: minOf(a.maxLength, b.maxLength),
    minItems: maxOf(a.minItems, b.minItems),
    maxItems: minOf(a.maxItems, b.maxItems),
    uniqueItems: a.uniqueItems || b.uniqueItems || undefined,
    minProperties: maxOf(a.minProperties, b.minProperties),
    maxProperties: minOf(a.maxProperties, b.maxProperties),
    properties,
    required: new Set([...a.required, ...b.required]),
    additional: a.additional ?? b.additional,
    items: a.items && b.items ? { node: { [MERGED]: [a.items, b.items] } as unknown as Json, pointer: a.items.pointer } : (a.items ?? b.items),
    prefixItems: a.prefixItems ?? b.prefixItems,
    variants: a.variants ?? b.variants,
    not: a.not ?? b.not,
    readOnly: a.readOnly || b.readOnly,
    writeOnly: a.writeOnly || b.writeOnly,
    default: a.default ?? b.default,
  };
}

/** Deep equality of two JSON values (key order aside). */
export function sameJson(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(b, key) || !sameJson((a as JsonObject)[key], (b as JsonObject)[key])) return false;
  }
  return true;
}

/** JSON text with sorted keys: equal for equal values. */
export function canonical(value: Json): string {
  if (value === undefined) return "undefined";
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  return `{${Object.keys(value)
    .filter((key) => (value as JsonObject)[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical((value as JsonObject)[key])}`)
    .join(",")}}`;
}

/** A value as it appears in a message: JSON, cut when long. */
export function show(value: Json): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function list(values: Json[]): string {
  const shown = values.slice(0, 8).map(show).join(", ");
  return values.length > 8 ? `${shown} and ${values.length - 8} more` : shown;
}

function boundMessage(keyword: string, before: unknown, after: unknown): string {
  if (before === undefined) return `${keyword} ${String(after)} added`;
  if (after === undefined) return `${keyword} ${String(before)} removed`;
  return `${keyword} changed from ${String(before)} to ${String(after)}`;
}
