import type { GlobalContext, OpenAPI3 } from "openapi-typescript";
import type * as TypeScript from "typescript";
import { UserError } from "../errors.js";
import { openapiTypescript, sameNodes, typescript } from "../package/deps.js";
import type { EmittedFile } from "./file.js";
import { printNodes } from "./printer.js";

/**
 * `schema.ts`: the types of every path, operation, component and webhook, made by openapi-typescript from the
 * document the loader corrected for it (discriminator values as the wire carries them: load/discriminators.ts
 * `typesDocument`). The bundling, validation and version checks openapi-typescript would run again are already
 * done by the loader, so its transform is called directly (that skips a second parse and Redocly's lint, which
 * are most of its time on large specs).
 */
export function emitTypes(document: Record<string, unknown>): EmittedFile {
  const schema = document as unknown as OpenAPI3; // the loader checked it is OpenAPI 3
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
    transform: undefined,
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
  const description = "types of every path, operation, component and webhook (openapi-typescript)";
  const printed = printNodes(sameNodes(nodes));
  if ("text" in printed) return { path: "schema.ts", content: printed.text, canonical: printed.text, description };
  return { path: "schema.ts", content: openapiTypescript.astToString(nodes), description, notCanonical: printed.unsupported };
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
