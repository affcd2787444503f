import ts from "typescript";
import { QUESTION_TOKEN, astToString, resolveRef, scanDiscriminators, transformSchema, type GlobalContext, type OpenAPI3 } from "openapi-typescript";
import { UserError } from "../errors.js";
import type { ApiModel } from "../ir/model.js";
import type { EmittedFile } from "./file.js";

/**
 * `schema.ts`: the types of every path, operation, component and webhook, made by openapi-typescript from the
 * bundled document. The bundling, validation and version checks openapi-typescript would run again are already
 * done by our loader, so its transform is called directly (that skips a second parse and Redocly's lint, which
 * are most of its time on large specs).
 */
export function emitTypes(model: ApiModel): EmittedFile {
  const schema = model.document as unknown as OpenAPI3;
  const options = { silent: true } as const;
  const ctx: GlobalContext = {
    additionalProperties: false,
    alphabetize: false,
    arrayLength: false,
    // A default does not make a property present in what a client sends: keep such properties optional.
    defaultNonNullable: false,
    discriminators: scanDiscriminators(schema, options),
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
    resolve: ($ref: string) => resolveRef(schema, $ref, { silent: true }),
  } as GlobalContext;
  let source: string;
  try {
    source = astToString(transformSchema(schema, ctx));
  } catch (error) {
    throw new UserError(`openapi-typescript could not build the types: ${(error as Error).message}`, {
      hint: "this spec uses something the type generator does not support; see the README's list of unsupported features",
      cause: error,
    });
  }
  return { path: "schema.ts", content: source, description: "types of every path, operation, component and webhook (openapi-typescript)" };
}

/**
 * A `writeOnly` property is never in a response, so it is optional in the one type openapi-typescript makes for
 * requests and responses alike (a required one is still required by the server's validation of requests).
 * (`readOnly` properties are `readonly` and left out of request bodies by the client and server types.)
 */
function optionalWriteOnly(property: ts.PropertySignature, schema: unknown): ts.PropertySignature | undefined {
  if (property.questionToken || !schema || typeof schema !== "object" || (schema as { writeOnly?: unknown }).writeOnly !== true) return undefined;
  return ts.factory.updatePropertySignature(property, property.modifiers, property.name, QUESTION_TOKEN, property.type);
}
