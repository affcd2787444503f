import type { Doc } from "prettier";
import { builders, printer } from "prettier/doc";
import type { ApiModel } from "../ir/model.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { dataLiteral, printString } from "./printer.js";
import { NameRegistry } from "../ir/naming.js";
import type { SchemaLibrary } from "../config/resolve.js";
import { parsePointer, resolvePointer } from "../openapi/pointer.js";
import { planSchemas, type PartUse, type PlannedOperation, type PlannedPart, type PlannedSchema, type SchemasPlan } from "./schemas-plan.js";
import { zodOf, type ZodContext } from "./schemas-zod.js";
import { FileTemplate } from "./template.js";

const { group, hardline, ifBreak, indent, indentIfBreak, join, line, softline } = builders;

/** How a generated module is written: TypeScript, or JavaScript with its declarations (`.js` + `.d.ts`). */
export type ModuleForm = "ts" | "js";

/**
 * The `schemas` output with specforge's validators: `schemas.ts` (the entry, from templates/files/schemas.ts: the
 * `components` and `operations` namespaces, `validateResponse` for the client, the Standard Schema types),
 * `schemas-components.ts` (one schema per component schema) and `schemas-operations.ts` (per operation, the schemas
 * of its parameters, body and responses). Each schema is an object literal: its JSON text, the schemas it `$ref`s, and
 * a `~standard` getter served by the runtime (templates/schemas/standard.ts), which validates with the router's
 * engine. Object literals are what bundlers drop when nothing uses them, so importing one schema ships that schema and
 * what it reaches.
 *
 * The modules are printed here in prettier's form (their statements are of a few fixed shapes, laid out with
 * prettier's own document printer), so no formatting pass is needed; parity is pinned by tests that run prettier on
 * them (the feature fixtures, and every spec of the corpus).
 */
export function emitSchemas(
  model: ApiModel,
  entry: FileTemplateSource,
  options: { form: ModuleForm; library: SchemaLibrary; superLinearPatterns: ReadonlySet<string> },
): EmittedFile[] {
  const plan = planSchemas(model, RESERVED);
  const writer = options.library === "zod" ? zodWriter(model.document, plan, options.superLinearPatterns) : specforgeWriter(options.superLinearPatterns);
  const kind = options.library === "zod" ? "zod schemas" : "Standard Schemas";
  const files = new FileTemplate(entry).printModule(options.library === "zod" ? "the spec's schemas as zod schemas" : "the spec's schemas as Standard Schemas: validate values with the router's rules");
  const modules: [path: string, description: string, module: ModuleText][] = [
    ["schemas-components", `one of the ${kind} per component schema of the spec`, componentsModule(plan, writer)],
    ["schemas-operations", `the ${kind} of each operation's parameters, body and responses`, operationsModule(plan, writer)],
  ];
  // (Zod expressions are one line each: prettier lays them out.)
  const file = (path: string, description: string, content: string): EmittedFile => ({ path, description, content, ...(writer.canonical ? { canonical: content } : {}), noCheck: true });
  for (const [path, description, module] of modules) {
    if (options.form === "ts") files.push(file(`${path}.ts`, description, render(module.ts)));
    else {
      const selfTypes = `// @ts-self-types="./${path}.d.ts"\n`;
      files.push(file(`${path}.js`, description, selfTypes + render(module.js)), file(`${path}.d.ts`, `the types of ${path}.js`, render(module.dts)));
    }
  }
  return files;
}

/** A schema as a module writes it. */
interface SchemaSource {
  at?: string | undefined;
  schema: unknown;
  refs: readonly PlannedSchema[];
  patterns: readonly string[];
  use?: PartUse | undefined;
}

/** What a library writes: each schema's value and type, and the imports they need. */
interface SchemaWriter {
  /** Whether the modules come out in prettier's form (else the formatting pass lays them out). */
  canonical: boolean;
  value(schema: SchemaSource, names: Names, reference: (schema: PlannedSchema) => string): Doc;
  /** The type of a schema that checks values of `type`. */
  type(names: Names, type: TypeNode): TypeNode;
  /** The value imports of a module whose statements are `statements` (for the .ts and the .js). */
  imports(names: Names, statements: readonly Doc[]): Doc[];
  /**
   * The type imports of the .ts and the .d.ts besides the spec's types: `helpers`, the runtime's types the module
   * names (`[local, imported]`), and the library's.
   */
  typeImports(names: Names, declarations: boolean, helpers: readonly [local: string, imported: string][]): Doc[];
}

/** specforge's Standard Schemas: object literals the runtime (templates/schemas/standard.ts) validates. */
function specforgeWriter(slow: ReadonlySet<string>): SchemaWriter {
  return {
    canonical: true,
    value: (schema, names, reference) => schemaObject(schema, names, reference, slow),
    type: (names, type) => ({ name: names.SpecSchema, args: [type] }),
    imports: (names) => [valueImport(names.standard, NAMES.standard, "./runtime/schemas/standard.js")],
    typeImports: (names, _declarations, helpers) => runtimeTypeImports([...helpers, [names.SpecSchema, NAMES.SpecSchema]]),
  };
}

/** zod 4 schemas (src/emit/schemas-zod.ts), typed as the spec's types. */
function zodWriter(document: unknown, plan: SchemasPlan, slow: ReadonlySet<string>): SchemaWriter {
  const key = (pointer: string) => JSON.stringify(parsePointer(pointer.slice(1)));
  const planned = new Map<string, PlannedSchema>([...plan.components, ...plan.others].map((schema) => [key(schema.at), schema]));
  const helpers = ["forward", "canonical"] as const;
  const inlined = new Set<PlannedSchema>();
  const differs = new Map<string, boolean>();
  /** Whether `target`, or a schema it reaches, says readOnly (a request), writeOnly (a response) or default (a request). */
  const readsDifferently = (target: PlannedSchema, use: PartUse): boolean => {
    const cacheKey = `${use} ${target.at}`;
    let answer = differs.get(cacheKey);
    if (answer === undefined) {
      const flags = use === "request" ? ['"readOnly":true', '"default":'] : ['"writeOnly":true'];
      const reached = new Set<PlannedSchema>([target]);
      for (const next of reached) for (const ref of next.refs) reached.add(ref);
      answer = [...reached].some((next) => flags.some((flag) => JSON.stringify(next.schema).includes(flag)));
      differs.set(cacheKey, answer);
    }
    return answer;
  };
  return {
    canonical: false,
    value: (schema, names, reference) => {
      const context: ZodContext = {
        use: schema.use,
        superLinear: slow,
        resolve: (pointer) => resolvePointer(document, parsePointer(pointer.slice(1))),
        ref: (pointer) => {
          if (!pointer.startsWith("#")) return undefined;
          const target = planned.get(key(pointer));
          // A request or response part reads readOnly, writeOnly and defaults as the router does: a schema whose
          // reading differs from the component's is written inline for it (a recursive one only at its first visit).
          if (target !== undefined && schema.use !== undefined && !inlined.has(target) && readsDifferently(target, schema.use)) {
            inlined.add(target);
            const written = zodOf(target.schema, context);
            inlined.delete(target);
            return written;
          }
          if (target !== undefined) return reference(target);
          // A pointer into a schema (`#/components/schemas/Pet/properties/id`): that subschema, inline.
          const inner = resolvePointer(document, parsePointer(pointer.slice(1)));
          return inner === undefined ? undefined : zodOf(inner, { ...context, ref: () => undefined });
        },
      };
      // Made by a call marked pure, so that a bundler drops the schemas a module does not use, as it drops unused
      // object literals (an annotation on the schema's own call would keep the calls in its arguments).
      return `/* @__PURE__ */ (() => ${renameIdentifiers(zodOf(schema.schema, context), { z: names.z, forward: names.forward, canonical: names.canonical })})()`;
    },
    type: (names, type) => ({ name: `${names.z}.ZodType`, args: [type] }),
    imports: (names, statements) => {
      const text = JSON.stringify(statements);
      const used = helpers.filter((helper) => text.includes(`${names[helper]}(`));
      const runtime = used.length > 0 ? [["import { ", join(", ", used.map((helper) => specifier(names[helper], helper))), ' } from "./runtime/schemas/zod.js";']] : [];
      // (A namespace import: zod's `z` object would bring all of zod, its locales too, into every bundle.)
      return [namespaceImport(names.z, "zod"), ...runtime];
    },
    typeImports: (names, declarations, helpers) => [...runtimeTypeImports(helpers), ...(declarations ? [["import type * as ", names.z, ' from "zod";']] : [])],
  };
}

/** `import type { … } from "./runtime/schemas/types.js";` with the names sorted (none: no import). */
function runtimeTypeImports(names: readonly [local: string, imported: string][]): Doc[] {
  return typeImports([...names].sort(([a], [b]) => (a < b ? -1 : 1)), "./runtime/schemas/types.js");
}

/**
 * `z.`, `forward(` and `canonical(` of a zod expression under the names the module imports them as (they differ only
 * when an operation takes one of those names), outside string literals.
 */
function renameIdentifiers(code: string, names: { z: string; forward: string; canonical: string }): string {
  if (names.z === "z" && names.forward === "forward" && names.canonical === "canonical") return code;
  return code.replace(/"(?:[^"\\]|\\.)*"|(?<![\w$.])(z(?=\.)|forward(?=\()|canonical(?=\())/g, (match, name: keyof typeof names | undefined) => (name ? names[name] : match));
}

/** The names the modules import under: no schema constant takes one (an operation's name may: see operationsModule). */
const NAMES = {
  components: "components",
  paths: "paths",
  standard: "standard",
  SpecSchema: "SpecSchema",
  parametersOf: "ParametersOf",
  requestBodyOf: "RequestBodyOf",
  responseBodyOf: "ResponseBodyOf",
  z: "z",
  forward: "forward",
  canonical: "canonical",
};
type Names = typeof NAMES;
/** Globals the zod refinements call: no schema constant shadows them. */
const GLOBALS = ["Object", "Array", "Set", "RegExp", "JSON"];
const RESERVED = [...Object.values(NAMES), ...GLOBALS];

/** A module in its three texts, as documents: the TypeScript, and the JavaScript with its declarations. */
interface ModuleText {
  ts: ModuleDocs;
  js: ModuleDocs;
  dts: ModuleDocs;
}

interface ModuleDocs {
  imports: Doc[];
  statements: Doc[];
}

const PRINT_OPTIONS = { printWidth: 80, tabWidth: 2, useTabs: false } as Parameters<typeof printer.printDocToString>[1];

/** The imports, then the other statements after a blank line each, laid out by prettier's document printer. */
function render({ imports, statements }: ModuleDocs): string {
  const parts: Doc[] = [];
  if (imports.length > 0) parts.push(join(hardline, imports));
  if (statements.length > 0) parts.push(join([hardline, hardline], statements));
  return parts.length === 0 ? "export {};\n" : printer.printDocToString([join([hardline, hardline], parts), hardline], PRINT_OPTIONS).formatted;
}

/** The `schemas-components` module: every component schema, exported, and the other schemas they `$ref`. */
function componentsModule(plan: SchemasPlan, writer: SchemaWriter): ModuleText {
  const names = NAMES;
  const reference = (schema: PlannedSchema) => schema.name;
  const others = othersReached(plan.components);
  const any = plan.components.length > 0;
  const types = any ? typeImports([[names.components, NAMES.components]], "./schema.js") : [];
  const type = (component: PlannedSchema) => writer.type(names, `${names.components}["schemas"][${printString(component.component!)}]`);
  const values = (typed: boolean) => [
    ...others.map((other) => constant(other.name, false, writer.value(other, names, reference), undefined)),
    ...plan.components.map((component) => constant(component.name, true, writer.value(component, names, reference), typed ? type(component) : undefined)),
  ];
  const runtime = any ? writer.imports(names, values(false)) : [];
  return {
    ts: { imports: [...types, ...runtime, ...(any ? writer.typeImports(names, false, []) : [])], statements: values(true) },
    js: { imports: runtime, statements: values(false) },
    dts: { imports: [...types, ...(any ? writer.typeImports(names, true, []) : [])], statements: plan.components.map((component) => declared(component.name, type(component))) },
  };
}

/**
 * The `schemas-operations` module: per operation, an object of its parts' schemas. Operations are named as the client
 * names them, so the module's imports (and the other schemas it defines) take names no operation has.
 */
function operationsModule(plan: SchemasPlan, writer: SchemaWriter): ModuleText {
  const taken = new NameRegistry(plan.operations.map((operation) => operation.name), (name) => name);
  const names = Object.fromEntries(Object.entries(NAMES).map(([key, name]) => [key, taken.claim(name)])) as Names;
  const otherNames = new Map<PlannedSchema, string>();
  const reference = (schema: PlannedSchema) => (schema.component !== undefined ? `${names.components}.${schema.name}` : otherNames.get(schema)!);
  const parts = plan.operations.flatMap((operation) => partsOf(operation, names));
  const others = othersReached(parts.map(([, part]) => part));
  for (const other of others) otherNames.set(other, taken.claim(other.name));
  const usesComponents = [...parts.map(([, part]) => part), ...others].some((schema) => schema.refs.some((ref) => ref.component !== undefined));
  const any = parts.length > 0;
  const types = any ? typeImports([[names.paths, NAMES.paths]], "./schema.js") : [];
  const components = usesComponents ? [namespaceImport(names.components, "./schemas-components.js")] : [];
  const helpers = (["parametersOf", "requestBodyOf", "responseBodyOf"] as const).filter((key) => parts.some(([, , type]) => type.name === names[key]));
  const helperTypes = (declarations: boolean) => (any ? writer.typeImports(names, declarations, helpers.map((key): [string, string] => [names[key], NAMES[key]])) : []);
  const otherConstants = others.map((other) => constant(otherNames.get(other)!, false, writer.value(other, names, reference), undefined));
  const value = (operation: PlannedOperation, typed: boolean): Doc => {
    const members = partsOf(operation, names).map(([key, part, type]) => {
      const object = writer.value({ ...part, at: undefined }, names, reference);
      return { key, value: typed ? [object, " as ", typeDoc(writer.type(names, type))] : object };
    });
    return objectOf(members, typed ? "ts" : "js");
  };
  const operations = (typed: boolean) => plan.operations.map((operation) => constant(operation.name, true, value(operation, typed), undefined));
  const runtime = any ? writer.imports(names, [...otherConstants, ...operations(false)]) : [];
  return {
    ts: { imports: [...types, ...components, ...runtime, ...helperTypes(false)], statements: [...otherConstants, ...operations(true)] },
    js: { imports: [...components, ...runtime], statements: [...otherConstants, ...operations(false)] },
    dts: {
      imports: [...types, ...helperTypes(true)],
      statements: plan.operations.map((operation) => {
        const members = partsOf(operation, names).map(([key, , type]) => ({ key, value: writer.type(names, type) }));
        return [`export declare const ${operation.name}: `, typeLiteralOf(members), ";"];
      }),
    },
  };
}

/** A type: a name with type arguments, or text that never breaks (an indexed access, a literal). */
type TypeNode = string | { name: string; args: TypeNode[] };

/** An object key and its value; nested objects are a list of such members. */
interface Member {
  key: string;
  value: Doc | Member[];
}

/**
 * The parts of an operation in the order the object lists them: `[key, part, the openapi-typescript type it checks]`;
 * the responses' keys are `responses\0<status>` (gathered under one `responses` member when printed).
 */
function partsOf(operation: PlannedOperation, names: Names): [key: string, part: PlannedPart, type: { name: string; args: TypeNode[] }][] {
  const op = `${names.paths}${[operation.operation.path, operation.operation.method].map((key) => `[${printString(key)}]`).join("")}`;
  const location = { path: "path", query: "query", headers: "header", cookies: "cookie" } as const;
  const parts: [string, PlannedPart, { name: string; args: TypeNode[] }][] = operation.parameters.map((part) => [part.kind, part, { name: names.parametersOf, args: [op, printString(location[part.kind])] }]);
  if (operation.body) parts.push(["body", operation.body, { name: names.requestBodyOf, args: [op, printString(operation.body.media)] }]);
  for (const response of operation.responses) {
    const status = /^\d+$/.test(response.status) ? response.status : printString(response.status);
    parts.push([`responses\u0000${response.status}`, response, { name: names.responseBodyOf, args: [op, status, printString(response.media)] }]);
  }
  return parts;
}

/** The schemas outside `components.schemas` that `from` reach through one another. */
function othersReached(from: readonly { refs: readonly PlannedSchema[] }[]): PlannedSchema[] {
  const found: PlannedSchema[] = [];
  const pending = from.flatMap((schema) => schema.refs.filter((ref) => ref.component === undefined));
  while (pending.length > 0) {
    const next = pending.shift()!;
    if (found.includes(next)) continue;
    found.push(next);
    pending.push(...next.refs.filter((ref) => ref.component === undefined));
  }
  return found;
}

/**
 * A schema object literal: the `~standard` getter, then what the runtime compiles it from (`use`, `at`, `json`,
 * `refs`, `slow`), each only when it says something.
 */
function schemaObject(
  schema: SchemaSource,
  names: Names,
  reference: (schema: PlannedSchema) => string,
  slow: ReadonlySet<string>,
): Doc {
  // The getter every schema object has: `~standard`, the runtime's, for this very object.
  const members: Doc[] = [['get "~standard"() {', indent([hardline, `return ${names.standard}(this);`]), hardline, "}"]];
  if (schema.use !== undefined) members.push(["use: ", printString(schema.use)]);
  if (schema.at !== undefined) members.push(["at: ", printString(schema.at)]);
  // One line when short; else one top-level keyword per line (and any longer entry broken further, as data tables are).
  members.push(["json: ", dataLiteral({ value: schema.schema, entriesAt: JSON.stringify(schema.schema).length <= 64 ? 0 : 1 })]);
  if (schema.refs.length > 0) members.push(["refs: () => ", arrayOf(schema.refs.map(reference))]);
  const patterns = schema.patterns.filter((pattern) => slow.has(pattern));
  if (patterns.length > 0) members.push(["slow: ", arrayOf(patterns.map(printString))]);
  return ["{", indent([hardline, join([",", hardline], members)]), ",", hardline, "}"];
}

/** `[a, b]`, or one item per line when it does not fit. */
function arrayOf(items: string[]): Doc {
  return group(["[", indent([softline, join([",", line], items)]), ifBreak(","), softline, "]"]);
}

/**
 * An object literal, one member per line (prettier keeps an object broken when the source breaks it). Keys are
 * quoted where they must be; in JavaScript prettier unquotes a number key (a status), TypeScript keeps it quoted (a
 * number and a string key differ there).
 */
function objectOf(members: readonly { key: string; value: Doc }[], form: ModuleForm): Doc {
  const grouped = groupResponses(members);
  if (grouped.length === 0) return "{}";
  const print = (list: readonly Member[]): Doc => {
    const entries = list.map((member) => [objectKey(member.key, form === "js"), ": ", Array.isArray(member.value) && isMemberList(member.value) ? print(member.value) : (member.value as Doc)]);
    return ["{", indent([hardline, join([",", hardline], entries)]), ",", hardline, "}"];
  };
  return print(grouped);
}

/** A type literal, one member per line (what the declarations of an operation's object are). */
function typeLiteralOf(members: readonly { key: string; value: TypeNode }[]): Doc {
  const grouped = groupResponses(members.map((member) => ({ key: member.key, value: typeDoc(member.value) })));
  if (grouped.length === 0) return "{}";
  const print = (list: readonly Member[]): Doc => {
    const entries = list.map((member) => [objectKey(member.key, false), ": ", Array.isArray(member.value) && isMemberList(member.value) ? print(member.value) : (member.value as Doc), ";"]);
    return ["{", indent([hardline, join(hardline, entries)]), hardline, "}"];
  };
  return print(grouped);
}

/** The members with the `responses\0<status>` ones gathered under one `responses` member. */
function groupResponses(members: readonly { key: string; value: Doc }[]): Member[] {
  const out: Member[] = [];
  let responses: Member[] | undefined;
  for (const member of members) {
    const status = member.key.startsWith("responses\u0000") ? member.key.slice("responses\u0000".length) : undefined;
    if (status === undefined) out.push(member);
    else {
      if (!responses) out.push({ key: "responses", value: (responses = []) });
      responses.push({ key: status, value: member.value });
    }
  }
  return out;
}

function isMemberList(value: Doc | Member[]): value is Member[] {
  return Array.isArray(value) && value.length > 0 && typeof value[0] === "object" && value[0] !== null && !Array.isArray(value[0]) && "key" in value[0];
}

const isKeyName = (key: string) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key);

function objectKey(key: string, unquoteNumbers: boolean): string {
  if (isKeyName(key) || (unquoteNumbers && /^(0|[1-9]\d*)$/.test(key))) return key;
  return printString(key);
}

function typeDoc(type: TypeNode): Doc {
  if (typeof type === "string") return type;
  // prettier: type arguments break one per line, without a trailing comma.
  return group([type.name, "<", indent([softline, join([",", line], type.args.map(typeDoc))]), softline, ">"]);
}

/** `export const name = value;` (`value as Type` when typed), as prettier lays out an assignment ("fluid"). */
function constant(name: string, exported: boolean, value: Doc, type: TypeNode | undefined): Doc {
  const head = `${exported ? "export " : ""}const ${name}`;
  const right: Doc = type === undefined ? value : [value, " as ", typeDoc(type)];
  const afterOperator = Symbol("assignment");
  return group([head, " =", group(indent(line), { id: afterOperator }), indentIfBreak(right, { groupId: afterOperator }), ";"]);
}

function declared(name: string, type: TypeNode): Doc {
  return [`export declare const ${name}: `, typeDoc(type), ";"];
}

/** `import type { a, b } from "…";` (`[local, imported]` names), broken one name per line when it does not fit. */
function typeImports(names: readonly [local: string, imported: string][], from: string): Doc[] {
  if (names.length === 0) return [];
  const specifiers = names.map(([local, imported]) => specifier(local, imported));
  const list: Doc = specifiers.length === 1 ? ["{ ", specifiers[0]!, " }"] : group(["{", indent([line, join([",", line], specifiers)]), ifBreak(","), line, "}"]);
  return [["import type ", list, " from ", printString(from), ";"]];
}

function valueImport(local: string, imported: string, from: string): Doc {
  return ["import { ", specifier(local, imported), " } from ", printString(from), ";"];
}

function namespaceImport(name: string, from: string): Doc {
  return ["import * as ", name, " from ", printString(from), ";"];
}

function specifier(local: string, imported: string): string {
  return local === imported ? local : `${imported} as ${local}`;
}
