import type { GlobalContext, OpenAPI3 } from "openapi-typescript";
import type * as TypeScript from "typescript";
import { UserError } from "../errors.js";
import { toJsonPointer } from "../openapi/pointer.js";
import { OAS31_METHODS } from "../openapi/vocabulary.js";
import { openapiTypescript, sameNodes, typescript, withFastCreateRef } from "../package/deps.js";
import type { EmittedFile } from "./file.js";
import type { OutputBudget } from "./budget.js";
import { LONG_TEXT, abridgedUse } from "./long-text.js";
import { printMembers, printNodes } from "./printer.js";

/**
 * The document openapi-typescript is given, as the loader made it for it (load/oas32.ts `translateForTypes`, then
 * load/discriminators.ts `typesDocument`), and where the loader moved what openapi-typescript cannot read.
 */
export interface TypesInput {
  document: Record<string, unknown>;
  /** Operations handed over under a reserved path (`query`, `additionalOperations`): that path, and where each belongs. */
  moved: readonly { key: string; path: string; method: string }[];
  /** The query parameter name querystring parameters were handed over under, when there were any. */
  querystringMarker?: string;
}

/**
 * `schema.ts`: the types of every path, operation, component and webhook, made by openapi-typescript from the
 * document the loader corrected for it (discriminator values as the wire carries them: load/discriminators.ts
 * `typesDocument`). The bundling, validation and version checks openapi-typescript would run again are already
 * done by the loader, so its transform is called directly (that skips a second parse and Redocly's lint, which
 * are most of its time on large specs).
 *
 * Marked `// @ts-nocheck`, like the declarations: a project's compiler then resolves these types where its code uses
 * them and no more, instead of checking every declaration of a file that is machine-made and checked by specforge's
 * own tests (on GitHub's description that check was a quarter of `tsc` over the whole output: docs/performance.md,
 * "What your compiler pays").
 */
export function emitTypes(input: TypesInput, budget?: OutputBudget): EmittedFile {
  return { ...withFastCreateRef(() => emitTypesOf(input, budget)), noCheck: true };
}

function emitTypesOf(input: TypesInput, budget: OutputBudget | undefined): EmittedFile {
  const schema = pathParametersDocumentedOnce(input) as unknown as OpenAPI3; // the loader checked it is OpenAPI 3
  const ctx = typesContext(schema);
  const description = "types of every path, operation, component and webhook (openapi-typescript)";
  // One part of the document at a time (paths, webhooks, components, then the operations the paths collected):
  // transformed, printed and dropped, so that the syntax tree and the printer's documents of one part are in memory at
  // a time, not the whole file's (docs/performance.md, "schema.ts: openapi-typescript's transform and the printer"). The printer prints top-level statements one after the
  // other with nothing between them, so the text is the same as printing them all at once.
  // `paths` and `components` a slice of entries at a time (SlicedInterface), and the operations their transforms
  // collect printed as they come (OperationsSoFar): their syntax trees die young.
  // Syntax the printer does not know: the whole file through openapi-typescript's printer (then prettier), as before.
  const throughOpenapiTypescript = (unsupported: string): EmittedFile => {
    const nodes = placeTranslated(transform(() => openapiTypescript.transformSchema(schema, typesContext(schema))), input);
    return { path: "schema.ts", content: openapiTypescript.astToString(nodes), description, notCanonical: unsupported };
  };
  const parts: string[] = [];
  // Every part printed, counted against the output budget as it is made (the operations' parts once: as they come).
  let length = 0;
  const made = (text: string) => budget?.check("schema.ts", (length += text.length), text);
  const operations = new OperationsSoFar(ctx, input, made);
  for (const statement of typeStatements(schema, ctx, { sliced: input.moved.length === 0 })) {
    const isOperations = !(statement instanceof SlicedInterface) && operations.isOperations(statement);
    const printed =
      statement instanceof SlicedInterface
        ? printSliced(statement, input, parts, operations, made)
        : isOperations
          ? operations.printAll()
          : printNodes(sameNodes(placeTranslated([statement], input)));
    if (!("text" in printed)) return throughOpenapiTypescript(printed.unsupported);
    const drained = operations.drain();
    if (!("text" in drained)) return throughOpenapiTypescript(drained.unsupported);
    parts.push(printed.text);
    if (!isOperations) made(printed.text);
  }
  const text = parts.join("");
  return { path: "schema.ts", content: text, canonical: text, description };
}

/**
 * How many entries of `paths` or of a components map (schemas, responses, …) are transformed and printed at a time.
 * On Stripe and OpenAI these two parts are most of schema.ts: transformed whole, their syntax trees and the printer's
 * documents lived through many young-generation collections and were promoted, then died in the old generation,
 * which grew with them (docs/performance.md, "schema.ts: openapi-typescript's transform and the printer"). A slice's die young.
 */
const SLICE = 64;

/** A part of schema.ts made a slice of entries at a time: its interface with a placeholder member per map. */
class SlicedInterface {
  constructor(
    readonly skeleton: TypeScript.InterfaceDeclaration,
    /**
     * Per map, in the interface's order: its placeholder's name and depth, its entries, the members the transform
     * makes of some of them, and the name of the member that holds them (for placeTranslated's querystring rule).
     */
    readonly maps: readonly { placeholder: string; depth: number; entries: [string, unknown][]; members: (entries: [string, unknown][]) => readonly TypeScript.TypeElement[]; holder?: string }[],
  ) {}
}

/**
 * Prints a sliced part onto `parts`: the skeleton's text with each placeholder's line replaced by the map's members,
 * printed as the printer prints them inside the whole interface (printMembers). The operations each slice's
 * transform collects are printed after it.
 */
function printSliced(sliced: SlicedInterface, input: TypesInput, parts: string[], operations: OperationsSoFar, made: (text: string) => void): { text: string } | { unsupported: string } {
  const skeleton = printNodes(sameNodes(placeTranslated([sliced.skeleton], input)));
  if (!("text" in skeleton)) return skeleton;
  let rest = skeleton.text;
  for (const map of sliced.maps) {
    const line = `\n${"  ".repeat(map.depth)}${map.placeholder}: never;`;
    const at = placeholderAt(rest, line);
    parts.push(rest.slice(0, at));
    made(rest.slice(0, at));
    rest = rest.slice(at + line.length);
    for (let start = 0; start < map.entries.length; start += SLICE) {
      const members = withQuerystring(map.members(map.entries.slice(start, start + SLICE)), input, map.holder);
      const printed = printMembers(sameMembers(members), map.depth);
      if (!("text" in printed)) return printed;
      parts.push(printed.text);
      made(printed.text);
      const drained = operations.drain();
      if (!("text" in drained)) return drained;
    }
  }
  return { text: rest };
}

/** placeTranslated's querystring rule for members of an interface (`holder` absent) or of its member `holder`. */
function withQuerystring(members: readonly TypeScript.TypeElement[], input: TypesInput, holder: string | undefined): readonly TypeScript.TypeElement[] {
  const marker = input.querystringMarker;
  if (marker === undefined) return members;
  if (holder === undefined) return members.map((member) => querystringIn(member, marker));
  const { factory } = typescript;
  const held = querystringIn(factory.createPropertySignature(undefined, holder, undefined, factory.createTypeLiteralNode(members)), marker);
  return (held.type as TypeScript.TypeLiteralNode).members;
}

/**
 * The `operations` interface openapi-typescript's transforms collect in ctx.injectFooter (one member per operation
 * with an operationId), printed as its members come and emptied, instead of kept whole until the end of schema.ts.
 */
class OperationsSoFar {
  private readonly printed: string[] = [];
  constructor(
    private readonly ctx: GlobalContext,
    private readonly input: TypesInput,
    /** Told each part printed (the output budget counts it). */
    private readonly made: (text: string) => void,
  ) {}

  private node(): TypeScript.InterfaceDeclaration | undefined {
    return this.ctx.injectFooter.find((node): node is TypeScript.InterfaceDeclaration => typescript.isInterfaceDeclaration(node) && node.name.text === "operations");
  }

  isOperations(statement: TypeScript.Node): boolean {
    return statement === this.node();
  }

  /** Prints the members collected since the last call and empties the interface (the transforms append to it). */
  drain(): { text: string } | { unsupported: string } {
    const node = this.node();
    if (!node || node.members.length === 0) return { text: "" };
    const printed = printMembers(sameMembers(withQuerystring(node.members, this.input, undefined)), 1);
    if (!("text" in printed)) return printed;
    this.printed.push(printed.text);
    this.made(printed.text);
    (node as { members: TypeScript.NodeArray<TypeScript.TypeElement> }).members = typescript.factory.createNodeArray([]);
    return printed;
  }

  /** The whole interface, as printNodes prints it with every member. */
  printAll(): { text: string } | { unsupported: string } {
    const drained = this.drain();
    if (!("text" in drained)) return drained;
    const node = this.node()!;
    if (this.printed.length === 0) return printNodes(sameNodes(placeTranslated([node], this.input)));
    const { factory } = typescript;
    const placeholder = "specforgeOperations";
    const skeleton = factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, [
      factory.createPropertySignature(undefined, placeholder, undefined, factory.createKeywordTypeNode(typescript.SyntaxKind.NeverKeyword)),
    ]);
    const text = printNodes(sameNodes([skeleton]));
    if (!("text" in text)) return text;
    const line = `\n  ${placeholder}: never;`;
    const at = placeholderAt(text.text, line);
    const whole = text.text.slice(0, at) + this.printed.join("") + text.text.slice(at + line.length);
    this.printed.length = 0;
    return { text: whole };
  }
}

/** Where a skeleton's placeholder line is; not finding it is a bug here (a slice would be spliced in the wrong place). */
function placeholderAt(text: string, line: string): number {
  const at = text.indexOf(line);
  if (at < 0) throw new Error(`schema.ts: the printed skeleton has no line ${JSON.stringify(line)}`);
  return at;
}

const sameMembers = (members: readonly TypeScript.TypeElement[]) => members as unknown as Parameters<typeof printMembers>[0];

/** openapi-typescript's options: what schema.ts is made with. */
export function typesContext(schema: OpenAPI3): GlobalContext {
  // resolveRef walks the document from its root, parsing the pointer each time; the transforms ask for the same
  // few thousand targets over and over, and nothing changes the document while they run.
  const resolved = new Map<string, unknown>();
  return {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    // A default does not make a property present in what a client sends: keep such properties optional.
    defaultNonNullable: false,
    // The corrected document says every discriminator value (see typesDocument); openapi-typescript's own reading
    // of discriminators (scanDiscriminators) would override them, and it mutates the document it scans.
    discriminators: { objects: {}, refsHandled: [] },
    emptyObjectsUnknown: false,
    enum: false,
    enumValues: false,
    conditionalEnums: false,
    dedupeEnums: false,
    excludeDeprecated: false,
    exportType: false,
    immutable: false,
    rootTypes: false,
    rootTypesNoSchemaPrefix: false,
    rootTypesKeepCasing: false,
    injectFooter: [],
    pathParamsAsTypes: false,
    postTransform: undefined,
    propertiesRequiredByDefault: false,
    redoc: undefined as unknown as GlobalContext["redoc"],
    silent: true,
    inject: undefined,
    transform: tupleWithRest,
    transformProperty: optionalWriteOnly,
    makePathsEnum: false,
    generatePathParams: false,
    readWriteMarkers: false,
    resolve: ($ref: string) => {
      if (resolved.has($ref)) return resolved.get($ref);
      const target = documentedAsUse(openapiTypescript.resolveRef(schema, $ref, { silent: true }), $ref);
      resolved.set($ref, target);
      return target;
    },
  } as GlobalContext;
}

/**
 * A `$ref`'d Parameter Object as openapi-typescript documents each use of it: it writes the parameter's description
 * and example above the parameter in every operation that uses it, beside the type `components["parameters"][…]`,
 * whose own comment has them whole. A long description is abridged there, with the `$ref` of the whole text, and a
 * long example left out (see long-text.ts). openapi-typescript reads nothing else of these fields.
 */
function documentedAsUse(target: unknown, $ref: string): unknown {
  if (target === null || typeof target !== "object" || !("in" in target) || !("name" in target)) return target;
  const { description, example, ...rest } = target as { description?: unknown; example?: unknown };
  const longDescription = typeof description === "string" && description.length > LONG_TEXT;
  const longExample = example !== undefined && (JSON.stringify(example)?.length ?? 0) > LONG_TEXT;
  if (!longDescription && !longExample) return target;
  return {
    ...rest,
    ...(description === undefined ? {} : { description: longDescription ? abridgedUse(description as string, $ref) : description }),
    ...(example === undefined || longExample ? {} : { example }),
  };
}

/**
 * The document with the parameters of each path item documented as a use in its operations: openapi-typescript writes
 * a path item's parameters into each of its operations (and the loader hands it OpenAPI 3.2's `additionalOperations`
 * as path items of their own, each with those parameters), documentation included. Each operation is given its own
 * copy of a path parameter whose description or example is long, documented as a use (documentedAsUse, pointing at
 * the path item), which takes the place of the path item's in the operation's type (an operation's parameter wins
 * over its path item's of the same name and location, keeping its place). The path item keeps its own whole.
 */
function pathParametersDocumentedOnce(input: TypesInput): Record<string, unknown> {
  const document = input.document;
  const paths = document["paths"];
  if (paths === null || typeof paths !== "object") return document;
  const reserved = new Map(input.moved.map((move) => [move.key, move.path]));
  let copied: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(paths as Record<string, unknown>)) {
    const parameters = (item as { parameters?: unknown } | null)?.parameters;
    if (!Array.isArray(parameters)) continue;
    const path = reserved.get(key) ?? key;
    const asUse = parameters.map((parameter, i) => (parameter !== null && typeof parameter === "object" && !("$ref" in parameter) ? documentedAsUse(parameter, `#${toJsonPointer(["paths", path, "parameters", i])}`) : parameter));
    const abridged = asUse.filter((parameter, i) => parameter !== parameters[i]);
    if (abridged.length === 0) continue;
    const withCopies: Record<string, unknown> = { ...(item as Record<string, unknown>) };
    for (const method of OAS31_METHODS) {
      const operation = withCopies[method] as { parameters?: unknown; $ref?: unknown } | undefined;
      if (operation === null || typeof operation !== "object" || "$ref" in operation) continue;
      withCopies[method] = { ...operation, parameters: [...abridged, ...(Array.isArray(operation.parameters) ? operation.parameters : [])] };
    }
    (copied ??= { ...(paths as Record<string, unknown>) })[key] = withCopies;
  }
  return copied ? { ...document, paths: copied } : document;
}

/** openapi-typescript's failure to build the types is the spec's problem (exit 2). */
function transform<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new UserError(`openapi-typescript could not build the types: ${(error as Error).message}`, {
      hint: "this spec uses something the type generator does not support; see the list of unsupported features in docs/output.md",
      cause: error,
    });
  }
}

/**
 * The statements openapi-typescript's `transformSchema` returns, in its order, one part of the document at a time:
 * its loop over `paths`, `webhooks`, `components` and `$defs` (with this ctx's options: no injected text, interfaces,
 * no paths enum), then the footer (`operations`, which the paths' transform collects).
 */
export function typeStatements(schema: OpenAPI3, ctx: GlobalContext): Generator<TypeScript.Node>;
export function typeStatements(schema: OpenAPI3, ctx: GlobalContext, options: { sliced: boolean }): Generator<TypeScript.Node | SlicedInterface>;
export function* typeStatements(schema: OpenAPI3, ctx: GlobalContext, options: { sliced?: boolean } = {}): Generator<TypeScript.Node | SlicedInterface> {
  const { factory } = typescript;
  const ot = openapiTypescript;
  const transformers: Record<string, (node: never) => unknown> = {
    paths: (node) => ot.transformPathsObject(node, ctx),
    webhooks: (node) => ot.transformWebhooksObject(node, ctx),
    components: (node) => ot.transformComponentsObject(node, ctx),
    $defs: (node) => ot.transformSchemaObject(node, { path: ot.createRef(["$defs"]), ctx, schema: node } as never),
  };
  const emptyRoot = (name: string) => factory.createTypeAliasDeclaration(ot.tsModifiers({ export: true }), name, undefined, ot.tsRecord(ot.STRING, ot.NEVER));
  const document = schema as unknown as Record<string, unknown>;
  for (const [root, transformer] of Object.entries(transformers)) {
    const part = document[root];
    if (!part || typeof part !== "object") {
      yield emptyRoot(root);
      continue;
    }
    if (options.sliced && root === "components") {
      yield slicedComponents(part as Record<string, unknown>, ctx);
      continue;
    }
    const paths = options.sliced && root === "paths" ? slicedPaths(part as Record<string, unknown>, ctx) : undefined;
    if (paths) {
      yield paths;
      continue;
    }
    const subTypes = ([] as unknown[]).concat(transform(() => transformer(part as never))) as TypeScript.Node[];
    for (const subType of subTypes) {
      if (typescript.isTypeNode(subType)) {
        const members = (subType as Partial<TypeScript.TypeLiteralNode>).members;
        yield members?.length ? factory.createInterfaceDeclaration(ot.tsModifiers({ export: true }), root, undefined, undefined, members) : emptyRoot(root);
      } else if (typescript.isTypeAliasDeclaration(subType)) {
        yield subType;
      } else {
        yield emptyRoot(root);
      }
    }
  }
  let hasOperations = false;
  for (const injected of ctx.injectFooter) {
    if (!hasOperations && (injected as Partial<TypeScript.InterfaceDeclaration>).name?.escapedText === "operations") hasOperations = true;
    yield injected;
  }
  ctx.injectFooter.length = 0;
  if (!hasOperations) yield emptyRoot("operations");
}

/** `components`' interface with each non-empty map to be made a slice at a time (SlicedComponents). */
function slicedComponents(components: Record<string, unknown>, ctx: GlobalContext): SlicedInterface {
  const { factory } = typescript;
  // The maps' keys and order, and the empty ones' `never`, as the transform makes them (no entries: nothing else runs).
  const [empty] = transform(() => openapiTypescript.transformComponentsObject({} as never, ctx));
  const maps: SlicedInterface["maps"][number][] = [];
  const members = (empty as TypeScript.TypeLiteralNode).members.map((member) => {
    const key = memberName(member);
    const value = components[key];
    // getEntries with this ctx's options (no sorting, no filter): the transform's entries of a truthy value.
    const entries = value ? Object.entries(value) : [];
    if (entries.length === 0) return member;
    const placeholder = `specforgeSlices${maps.length}`;
    const mapMembers = (some: [string, unknown][]) => {
      const [literal] = transform(() => openapiTypescript.transformComponentsObject({ [key]: Object.fromEntries(some) } as never, ctx));
      const map = (literal as TypeScript.TypeLiteralNode).members.find((m) => memberName(m) === key) as TypeScript.PropertySignature;
      return (map.type as TypeScript.TypeLiteralNode).members;
    };
    maps.push({ placeholder, depth: 2, entries, members: mapMembers, holder: key });
    const stand = factory.createPropertySignature(undefined, placeholder, undefined, factory.createKeywordTypeNode(typescript.SyntaxKind.NeverKeyword));
    return factory.updatePropertySignature(member as TypeScript.PropertySignature, undefined, (member as TypeScript.PropertySignature).name, undefined, factory.createTypeLiteralNode([stand]));
  });
  return new SlicedInterface(factory.createInterfaceDeclaration(openapiTypescript.tsModifiers({ export: true }), "components", undefined, undefined, members), maps);
}

/** `paths` a slice of path items at a time; undefined when it has none (the transform skips what is not an object). */
function slicedPaths(paths: Record<string, unknown>, ctx: GlobalContext): SlicedInterface | undefined {
  const entries = Object.entries(paths);
  if (!entries.some(([, item]) => item && typeof item === "object")) return undefined;
  const { factory } = typescript;
  const placeholder = "specforgeSlices";
  const members = (some: [string, unknown][]) => (transform(() => openapiTypescript.transformPathsObject(Object.fromEntries(some) as never, ctx)) as unknown as TypeScript.TypeLiteralNode).members;
  const stand = factory.createPropertySignature(undefined, placeholder, undefined, factory.createKeywordTypeNode(typescript.SyntaxKind.NeverKeyword));
  return new SlicedInterface(factory.createInterfaceDeclaration(openapiTypescript.tsModifiers({ export: true }), "paths", undefined, undefined, [stand]), [{ placeholder, depth: 1, entries, members }]);
}

/**
 * An array with `prefixItems` (JSON Schema 2020-12): openapi-typescript types it as exactly those elements, `[A, B]`,
 * ignoring that an array may stop short of them and that `items` types the rest. What it means is `[A?, B?,
 * ...C[]]` (elements up to `minItems` required; no rest with `items: false`, any rest without `items`). OpenAPI 3.2
 * models multipart parts by position this way (a manifest, then any number of files).
 */
function tupleWithRest(schema: unknown, options: unknown): TypeScript.TypeNode | undefined {
  const array = schema as { type?: unknown; prefixItems?: unknown; items?: unknown; minItems?: unknown };
  if (array.type !== "array" || !Array.isArray(array.prefixItems)) return undefined;
  const transform = (node: unknown) => openapiTypescript.transformSchemaObject(node as never, options as never);
  const required = typeof array.minItems === "number" ? array.minItems : 0;
  const elements: TypeScript.TypeNode[] = array.prefixItems.map((item, i) => (i < required ? transform(item) : typescript.factory.createOptionalTypeNode(transform(item))));
  if (array.items !== false) {
    const rest = array.items === undefined || array.items === true ? typescript.factory.createKeywordTypeNode(typescript.SyntaxKind.UnknownKeyword) : transform(array.items);
    elements.push(typescript.factory.createRestTypeNode(typescript.factory.createArrayTypeNode(rest)));
  }
  return typescript.factory.createTupleTypeNode(elements);
}

/**
 * A `writeOnly` property is never in a response, so it is optional in the one type openapi-typescript makes for
 * requests and responses alike (a required one is still required by the server's validation of requests).
 * (`readOnly` properties are `readonly` and left out of request bodies by the client and server types.)
 */
function optionalWriteOnly(property: TypeScript.PropertySignature, schema: unknown): TypeScript.PropertySignature | undefined {
  if (property.questionToken || !schema || typeof schema !== "object" || (schema as { writeOnly?: unknown }).writeOnly !== true) return undefined;
  const { factory, SyntaxKind } = typescript;
  return factory.updatePropertySignature(property, property.modifiers, property.name, factory.createToken(SyntaxKind.QuestionToken), property.type);
}

/**
 * Puts what the loader translated for openapi-typescript (load/oas32.ts) where OpenAPI 3.2 has it: each moved
 * operation becomes `paths[p][method]` beside the path's other methods, and a querystring parameter, typed as a query
 * parameter with a reserved name, becomes `parameters.querystring`.
 */
function placeTranslated(nodes: readonly TypeScript.Node[], translation: TypesInput): ReturnType<typeof openapiTypescript.transformSchema> {
  let result = [...nodes];
  if (translation.moved.length > 0) {
    const moved = new Map(translation.moved.map((entry) => [entry.key, entry]));
    result = result.map((node) => {
      if (!typescript.isInterfaceDeclaration(node) || node.name.text !== "paths") return node;
      const added = new Map<string, TypeScript.PropertySignature[]>();
      for (const member of node.members) {
        const entry = typescript.isPropertySignature(member) ? moved.get(memberName(member)) : undefined;
        const type = typescript.isPropertySignature(member) ? member.type : undefined;
        const get = entry && type && typescript.isTypeLiteralNode(type) ? type.members.find((m): m is TypeScript.PropertySignature => typescript.isPropertySignature(m) && memberName(m) === "get") : undefined;
        if (!entry || !get?.type) continue;
        const placed = typescript.factory.createPropertySignature(get.modifiers, propertyName(entry.method), undefined, get.type);
        const comments = typescript.getSyntheticLeadingComments(get);
        if (comments) typescript.setSyntheticLeadingComments(placed, comments);
        added.set(entry.path, [...(added.get(entry.path) ?? []), placed]);
      }
      const members = node.members
        .filter((member) => !(typescript.isPropertySignature(member) && moved.has(memberName(member))))
        .map((member) => {
          const extra = typescript.isPropertySignature(member) ? added.get(memberName(member)) : undefined;
          if (!extra || !typescript.isPropertySignature(member) || !member.type || !typescript.isTypeLiteralNode(member.type)) return member;
          const type = typescript.factory.updateTypeLiteralNode(member.type, typescript.factory.createNodeArray([...member.type.members, ...extra]));
          return typescript.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, type);
        });
      return typescript.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
    });
  }
  if (translation.querystringMarker !== undefined) {
    const marker = translation.querystringMarker;
    result = result.map((node) => (typescript.isInterfaceDeclaration(node) ? typescript.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, node.members.map((member) => querystringIn(member, marker))) : node));
  }
  return result as ReturnType<typeof openapiTypescript.transformSchema>;
}

/** `parameters: { query: { "\0querystring": T } }` → `parameters: { query?: never; querystring: T }`, at any depth. */
function querystringIn<T extends TypeScript.TypeElement>(member: T, marker: string): T {
  if (!typescript.isPropertySignature(member) || !member.type || !typescript.isTypeLiteralNode(member.type)) return member;
  const literal = member.type;
  let members = literal.members.map((m) => querystringIn(m, marker));
  if (memberName(member) === "parameters") {
    const query = members.find((m): m is TypeScript.PropertySignature => typescript.isPropertySignature(m) && memberName(m) === "query");
    const queryType = query?.type && typescript.isTypeLiteralNode(query.type) ? query.type : undefined;
    const found = queryType?.members.find((m): m is TypeScript.PropertySignature => typescript.isPropertySignature(m) && memberName(m) === marker);
    if (query && queryType && found?.type) {
      const rest = queryType.members.filter((m) => m !== found);
      const querystring = typescript.factory.createPropertySignature(found.modifiers, "querystring", found.questionToken, found.type);
      const comments = typescript.getSyntheticLeadingComments(found);
      if (comments) typescript.setSyntheticLeadingComments(querystring, comments);
      const newQuery =
        rest.length === 0
          ? typescript.factory.createPropertySignature(query.modifiers, query.name, typescript.factory.createToken(typescript.SyntaxKind.QuestionToken), typescript.factory.createKeywordTypeNode(typescript.SyntaxKind.NeverKeyword))
          : typescript.factory.updatePropertySignature(query, query.modifiers, query.name, query.questionToken, typescript.factory.updateTypeLiteralNode(queryType, typescript.factory.createNodeArray(rest)));
      const index = members.indexOf(query);
      members = [...members.slice(0, index), newQuery, querystring, ...members.slice(index + 1)];
    }
  }
  if (members.length === literal.members.length && members.every((m, i) => m === literal.members[i])) return member;
  return typescript.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, typescript.factory.updateTypeLiteralNode(literal, typescript.factory.createNodeArray(members))) as unknown as T;
}

function memberName(member: TypeScript.TypeElement): string {
  const name = member.name;
  if (!name) return "";
  return typescript.isIdentifier(name) || typescript.isStringLiteral(name) || typescript.isNumericLiteral(name) ? name.text : "";
}

/** A property name as openapi-typescript writes one: an identifier when it can be, else a string literal. */
function propertyName(name: string): TypeScript.PropertyName {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? typescript.factory.createIdentifier(name) : typescript.factory.createStringLiteral(name);
}
