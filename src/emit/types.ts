import type { GlobalContext, OpenAPI3 } from "openapi-typescript";
import type * as TS from "typescript";
import { openapiTypescript, ts } from "../deps.js";
import { printCanonicalTypes } from "./canonical-types.js";
import { UserError } from "../errors.js";
import { typesDocument } from "../load/discriminators.js";
import { QUERYSTRING_MARKER, translateForTypes, type TypesTranslation } from "../load/oas32.js";
import type { ApiModel } from "../ir/model.js";
import type { EmittedFile } from "./file.js";

/**
 * `schema.ts`: the types of every path, operation, component and webhook, made by openapi-typescript from the
 * bundled document as corrected for it (discriminator values as the wire carries them, see typesDocument). The bundling, validation and version checks openapi-typescript would run again are already
 * done by our loader, so its transform is called directly (that skips a second parse and Redocly's lint, which
 * are most of its time on large specs).
 */
export function emitTypes(model: ApiModel): EmittedFile {
  const translation = translateForTypes(model.document);
  const schema = typesDocument(translation.document) as unknown as OpenAPI3;
  const ctx: GlobalContext = {
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
    resolve: ($ref: string) => openapiTypescript.resolveRef(schema, $ref, { silent: true }),
  } as GlobalContext;
  let nodes: ReturnType<typeof openapiTypescript.transformSchema>;
  try {
    nodes = openapiTypescript.transformSchema(schema, ctx);
  } catch (error) {
    throw new UserError(`openapi-typescript could not build the types: ${(error as Error).message}`, {
      hint: "this spec uses something the type generator does not support; see the README's list of unsupported features",
      cause: error,
    });
  }
  nodes = placeTranslated(nodes, translation);
  const description = "types of every path, operation, component and webhook (openapi-typescript)";
  const printed = printCanonicalTypes(nodes);
  if ("text" in printed) return { path: "schema.ts", content: printed.text, canonical: printed.text, description };
  return { path: "schema.ts", content: openapiTypescript.astToString(nodes), description, notCanonical: printed.unsupported };
}

/**
 * An array with `prefixItems` (JSON Schema 2020-12): openapi-typescript types it as exactly those elements, `[A, B]`,
 * ignoring that an array may stop short of them and that `items` types the rest. What it means is `[A?, B?,
 * ...C[]]` (elements up to `minItems` required; no rest with `items: false`, any rest without `items`). OpenAPI 3.2
 * models multipart parts by position this way (a manifest, then any number of files).
 */
function tupleWithRest(schema: unknown, options: unknown): TS.TypeNode | undefined {
  const array = schema as { type?: unknown; prefixItems?: unknown; items?: unknown; minItems?: unknown };
  if (array.type !== "array" || !Array.isArray(array.prefixItems)) return undefined;
  const transform = (node: unknown) => openapiTypescript.transformSchemaObject(node as never, options as never);
  const required = typeof array.minItems === "number" ? array.minItems : 0;
  const elements: TS.TypeNode[] = array.prefixItems.map((item, i) => (i < required ? transform(item) : ts.factory.createOptionalTypeNode(transform(item))));
  if (array.items !== false) {
    const rest = array.items === undefined || array.items === true ? ts.factory.createKeywordTypeNode(ts.SyntaxKind.UnknownKeyword) : transform(array.items);
    elements.push(ts.factory.createRestTypeNode(ts.factory.createArrayTypeNode(rest)));
  }
  return ts.factory.createTupleTypeNode(elements);
}

/**
 * A `writeOnly` property is never in a response, so it is optional in the one type openapi-typescript makes for
 * requests and responses alike (a required one is still required by the server's validation of requests).
 * (`readOnly` properties are `readonly` and left out of request bodies by the client and server types.)
 */
function optionalWriteOnly(property: TS.PropertySignature, schema: unknown): TS.PropertySignature | undefined {
  if (property.questionToken || !schema || typeof schema !== "object" || (schema as { writeOnly?: unknown }).writeOnly !== true) return undefined;
  return ts.factory.updatePropertySignature(property, property.modifiers, property.name, ts.factory.createToken(ts.SyntaxKind.QuestionToken), property.type);
}

/**
 * Puts what the loader translated for openapi-typescript (load/oas32.ts) where OpenAPI 3.2 has it: each moved
 * operation becomes `paths[p][method]` beside the path's other methods, and a querystring parameter, typed as a query
 * parameter with a reserved name, becomes `parameters.querystring`.
 */
function placeTranslated(nodes: readonly TS.Node[], translation: TypesTranslation): ReturnType<typeof openapiTypescript.transformSchema> {
  let result = [...nodes];
  if (translation.moved.length > 0) {
    const moved = new Map(translation.moved.map((entry) => [entry.key, entry]));
    result = result.map((node) => {
      if (!ts.isInterfaceDeclaration(node) || node.name.text !== "paths") return node;
      const added = new Map<string, TS.PropertySignature[]>();
      for (const member of node.members) {
        const entry = ts.isPropertySignature(member) ? moved.get(memberName(member)) : undefined;
        const type = ts.isPropertySignature(member) ? member.type : undefined;
        const get = entry && type && ts.isTypeLiteralNode(type) ? type.members.find((m): m is TS.PropertySignature => ts.isPropertySignature(m) && memberName(m) === "get") : undefined;
        if (!entry || !get?.type) continue;
        const placed = ts.factory.createPropertySignature(get.modifiers, propertyName(entry.method), undefined, get.type);
        const comments = ts.getSyntheticLeadingComments(get);
        if (comments) ts.setSyntheticLeadingComments(placed, comments);
        added.set(entry.path, [...(added.get(entry.path) ?? []), placed]);
      }
      const members = node.members
        .filter((member) => !(ts.isPropertySignature(member) && moved.has(memberName(member))))
        .map((member) => {
          const extra = ts.isPropertySignature(member) ? added.get(memberName(member)) : undefined;
          if (!extra || !ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) return member;
          const type = ts.factory.updateTypeLiteralNode(member.type, ts.factory.createNodeArray([...member.type.members, ...extra]));
          return ts.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, type);
        });
      return ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, members);
    });
  }
  if (translation.querystring) {
    result = result.map((node) => (ts.isInterfaceDeclaration(node) ? ts.factory.updateInterfaceDeclaration(node, node.modifiers, node.name, node.typeParameters, node.heritageClauses, node.members.map(querystringIn)) : node));
  }
  return result as ReturnType<typeof openapiTypescript.transformSchema>;
}

/** `parameters: { query: { "\0querystring": T } }` → `parameters: { query?: never; querystring: T }`, at any depth. */
function querystringIn<T extends TS.TypeElement>(member: T): T {
  if (!ts.isPropertySignature(member) || !member.type || !ts.isTypeLiteralNode(member.type)) return member;
  const literal = member.type;
  let members = literal.members.map(querystringIn);
  if (memberName(member) === "parameters") {
    const query = members.find((m): m is TS.PropertySignature => ts.isPropertySignature(m) && memberName(m) === "query");
    const queryType = query?.type && ts.isTypeLiteralNode(query.type) ? query.type : undefined;
    const marker = queryType?.members.find((m): m is TS.PropertySignature => ts.isPropertySignature(m) && memberName(m) === QUERYSTRING_MARKER);
    if (query && queryType && marker?.type) {
      const rest = queryType.members.filter((m) => m !== marker);
      const querystring = ts.factory.createPropertySignature(marker.modifiers, "querystring", marker.questionToken, marker.type);
      const comments = ts.getSyntheticLeadingComments(marker);
      if (comments) ts.setSyntheticLeadingComments(querystring, comments);
      const newQuery =
        rest.length === 0
          ? ts.factory.createPropertySignature(query.modifiers, query.name, ts.factory.createToken(ts.SyntaxKind.QuestionToken), ts.factory.createKeywordTypeNode(ts.SyntaxKind.NeverKeyword))
          : ts.factory.updatePropertySignature(query, query.modifiers, query.name, query.questionToken, ts.factory.updateTypeLiteralNode(queryType, ts.factory.createNodeArray(rest)));
      const index = members.indexOf(query);
      members = [...members.slice(0, index), newQuery, querystring, ...members.slice(index + 1)];
    }
  }
  if (members.length === literal.members.length && members.every((m, i) => m === literal.members[i])) return member;
  return ts.factory.updatePropertySignature(member, member.modifiers, member.name, member.questionToken, ts.factory.updateTypeLiteralNode(literal, ts.factory.createNodeArray(members))) as unknown as T;
}

function memberName(member: TS.TypeElement): string {
  const name = member.name;
  if (!name) return "";
  return ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name) ? name.text : "";
}

/** A property name as openapi-typescript writes one: an identifier when it can be, else a string literal. */
function propertyName(name: string): TS.PropertyName {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? ts.factory.createIdentifier(name) : ts.factory.createStringLiteral(name);
}
