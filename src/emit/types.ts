import type { GlobalContext, OpenAPI3 } from "openapi-typescript";
import type * as TypeScript from "typescript";
import { UserError } from "../errors.js";
import { openapiTypescript, sameNodes, typescript, withFastCreateRef } from "../package/deps.js";
import type { EmittedFile } from "./file.js";
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
 * own tests (on GitHub's description that check was a quarter of `tsc` over the whole output: bench/NOTES.md,
 * session 8).
 */
export function emitTypes(input: TypesInput): EmittedFile {
  return { ...withFastCreateRef(() => emitTypesOf(input)), noCheck: true };
}

function emitTypesOf(input: TypesInput): EmittedFile {
  const schema = input.document as unknown as OpenAPI3; // the loader checked it is OpenAPI 3
  const ctx = typesContext(schema);
  const description = "types of every path, operation, component and webhook (openapi-typescript)";
  // One part of the document at a time (paths, webhooks, components, then the operations the paths collected):
  // transformed, printed and dropped, so that the syntax tree and the printer's documents of one part are in memory at
  // a time, not the whole file's (bench/NOTES.md, session 5). The printer prints top-level statements one after the
  // other with nothing between them, so the text is the same as printing them all at once.
  const parts: string[] = [];
  for (const statement of typeStatements(schema, ctx, { slicedComponents: true })) {
    const printed = statement instanceof SlicedComponents ? printSliced(statement, input, parts) : printNodes(sameNodes(placeTranslated([statement], input)));
    if (!("text" in printed)) {
      // Syntax the printer does not know: the whole file through openapi-typescript's printer (then prettier), as before.
      const nodes = placeTranslated(transform(() => openapiTypescript.transformSchema(schema, typesContext(schema))), input);
      return { path: "schema.ts", content: openapiTypescript.astToString(nodes), description, notCanonical: printed.unsupported };
    }
    parts.push(printed.text);
  }
  const text = parts.join("");
  return { path: "schema.ts", content: text, canonical: text, description };
}

/**
 * How many entries of a components map (schemas, responses, …) are transformed and printed at a time. Stripe's and
 * OpenAI's `components` is most of schema.ts: transformed whole, its syntax tree and the printer's documents lived
 * through many young-generation collections and were promoted, then died in the old generation, which grew with them
 * (bench/NOTES.md, session 11, branch mem9). A slice's die young.
 */
const COMPONENTS_SLICE = 64;

/**
 * `components` as openapi-typescript's transformComponentsObject makes it, to be made a slice of entries at a time:
 * the interface with each non-empty map's members replaced by one placeholder member, and the maps' entries.
 */
class SlicedComponents {
  constructor(
    readonly skeleton: TypeScript.InterfaceDeclaration,
    /** Per non-empty map, in the interface's order: its key, its placeholder's name, its entries. */
    readonly maps: readonly { key: string; placeholder: string; entries: [string, unknown][] }[],
    readonly ctx: GlobalContext,
  ) {}

  /** The members of `key`'s map for `entries`, as transformComponentsObject makes them for the whole map. */
  members(key: string, entries: [string, unknown][]): readonly TypeScript.TypeElement[] {
    const [literal] = transform(() => openapiTypescript.transformComponentsObject({ [key]: Object.fromEntries(entries) } as never, this.ctx));
    const map = (literal as TypeScript.TypeLiteralNode).members.find((member) => memberName(member) === key) as TypeScript.PropertySignature;
    return (map.type as TypeScript.TypeLiteralNode).members;
  }
}

/**
 * Prints `components` a slice of each map at a time onto `parts`: the skeleton's text with each placeholder's line
 * replaced by the map's members, printed as the printer prints them inside the whole interface (printMembers).
 */
function printSliced(sliced: SlicedComponents, input: TypesInput, parts: string[]): { text: string } | { unsupported: string } {
  const skeleton = printNodes(sameNodes(placeTranslated([sliced.skeleton], input)));
  if (!("text" in skeleton)) return skeleton;
  let rest = skeleton.text;
  for (const { key, placeholder, entries } of sliced.maps) {
    const line = `\n    ${placeholder}: never;`;
    const at = rest.indexOf(line);
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + line.length);
    for (let start = 0; start < entries.length; start += COMPONENTS_SLICE) {
      let members = sliced.members(key, entries.slice(start, start + COMPONENTS_SLICE));
      if (input.querystringMarker !== undefined) {
        // As placeTranslated does for the member `key` of the whole interface.
        const { factory } = typescript;
        const map = querystringIn(factory.createPropertySignature(undefined, key, undefined, factory.createTypeLiteralNode(members)), input.querystringMarker);
        members = (map.type as TypeScript.TypeLiteralNode).members;
      }
      const printed = printMembers(sameMembers(members), 2);
      if (!("text" in printed)) return printed;
      parts.push(printed.text);
    }
  }
  return { text: rest };
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
      const target = openapiTypescript.resolveRef(schema, $ref, { silent: true });
      resolved.set($ref, target);
      return target;
    },
  } as GlobalContext;
}

/** openapi-typescript's failure to build the types is the spec's problem (exit 2). */
function transform<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw new UserError(`openapi-typescript could not build the types: ${(error as Error).message}`, {
      hint: "this spec uses something the type generator does not support; see the README's list of unsupported features",
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
export function typeStatements(schema: OpenAPI3, ctx: GlobalContext, options: { slicedComponents: true }): Generator<TypeScript.Node | SlicedComponents>;
export function* typeStatements(schema: OpenAPI3, ctx: GlobalContext, options: { slicedComponents?: boolean } = {}): Generator<TypeScript.Node | SlicedComponents> {
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
    if (root === "components" && options.slicedComponents) {
      yield slicedComponents(part as Record<string, unknown>, ctx);
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
function slicedComponents(components: Record<string, unknown>, ctx: GlobalContext): SlicedComponents {
  const { factory } = typescript;
  // The maps' keys and order, and the empty ones' `never`, as the transform makes them (no entries: nothing else runs).
  const [empty] = transform(() => openapiTypescript.transformComponentsObject({} as never, ctx));
  const maps: { key: string; placeholder: string; entries: [string, unknown][] }[] = [];
  const members = (empty as TypeScript.TypeLiteralNode).members.map((member) => {
    const key = memberName(member);
    const value = components[key];
    // getEntries with this ctx's options (no sorting, no filter): the transform's entries of a truthy value.
    const entries = value ? Object.entries(value) : [];
    if (entries.length === 0) return member;
    const placeholder = `specforgeSlices${maps.length}`;
    maps.push({ key, placeholder, entries });
    const stand = factory.createPropertySignature(undefined, placeholder, undefined, factory.createKeywordTypeNode(typescript.SyntaxKind.NeverKeyword));
    return factory.updatePropertySignature(member as TypeScript.PropertySignature, undefined, (member as TypeScript.PropertySignature).name, undefined, factory.createTypeLiteralNode([stand]));
  });
  const skeleton = factory.createInterfaceDeclaration(openapiTypescript.tsModifiers({ export: true }), "components", undefined, undefined, members);
  return new SlicedComponents(skeleton, maps, ctx);
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
