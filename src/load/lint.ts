import { UserError, formatPointer, type SpecWarning } from "../errors.js";
import { parsePointer, resolvePointer } from "../openapi/pointer.js";
import { operationsOf } from "./operations.js";

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => value !== null && typeof value === "object" && !Array.isArray(value);

/** The fields of the OpenAPI Object (3.0, 3.1 and 3.2 together: specforge reads `webhooks` in 3.0 documents too). */
const TOP_LEVEL_FIELDS = ["openapi", "$self", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags", "externalDocs"];

/**
 * What a document leaves out or adds that its author probably did not mean, as warnings with their location:
 * no `info` (or no title / version in it), no `paths` in a 3.0 document, unknown top-level fields, operations that
 * declare no responses. The output is still right for what the document does say, so generation goes on.
 *
 * A document with nothing in it to generate from — no `paths`, `webhooks` or `components` at all, which no OpenAPI
 * version allows — is an error: its output would be an empty client and server, and the usual cause is the wrong
 * file. A valid document that declares nothing yet (`paths: {}`) gets a warning instead: a new API starts that way.
 */
export function lintDocument(document: JsonObject, version: "3.0" | "3.1" | "3.2", shown: string): SpecWarning[] {
  const warnings: SpecWarning[] = [];
  const at = (pointer: (string | number)[]) => formatPointer(shown, pointer);

  for (const key of Object.keys(document)) {
    if (key.startsWith("x-") || TOP_LEVEL_FIELDS.includes(key)) continue;
    const near = closest(key, TOP_LEVEL_FIELDS);
    warnings.push({
      message: `unknown top-level field \`${key}\` is ignored`,
      location: at([key]),
      hint: near ? `did you mean \`${near}\`?` : `an OpenAPI document has ${TOP_LEVEL_FIELDS.filter((f) => f !== "$self").join(", ")} and x- extensions`,
    });
  }

  if (!isObject(document.info)) {
    warnings.push({
      message: "the document has no `info` (it is required): the output names the API \"API\", version 0.0.0",
      location: at([]),
      hint: "add `info: { title: …, version: … }`",
    });
  } else {
    const missing = ["title", "version"].filter((field) => (document.info as JsonObject)[field] === undefined);
    if (missing.length > 0) {
      warnings.push({
        message: `\`info\` has no ${missing.map((f) => `\`${f}\``).join(" or ")} (required)`,
        location: at(["info"]),
      });
    }
  }

  const hasPaths = "paths" in document;
  const hasWebhooks = "webhooks" in document;
  const hasComponents = "components" in document;
  if (!hasPaths && !hasWebhooks && !hasComponents) {
    throw new UserError("nothing to generate: the document has no `paths`, `webhooks` or `components`", {
      location: at([]),
      hint: "is this the right file? An OpenAPI document describes its operations under `paths:` (or `webhooks:` / `components:` in 3.1)",
    });
  }
  if (!hasPaths && version === "3.0") {
    warnings.push({
      message: "an OpenAPI 3.0 document requires `paths`: none are generated",
      location: at([]),
      hint: "add `paths: {}` if the document only has components, or use `openapi: 3.1.0`",
    });
  }

  let operations = 0;
  const paths = isObject(document.paths) ? document.paths : {};
  for (const path of Object.keys(paths)) {
    // A path item may be a `$ref` to `components.pathItems` (3.1): the bundled document keeps those internal.
    const written = paths[path];
    const target = isObject(written) && typeof written.$ref === "string" && written.$ref.startsWith("#") ? parsePointer(written.$ref.slice(1)) : undefined;
    const item = target ? resolvePointer(document, target) : written;
    const itemPointer = target ?? ["paths", path];
    if (!isObject(item)) continue;
    for (const { at: below, operation } of operationsOf(item).operations) {
      operations++;
      const responses = operation.responses;
      if (!isObject(responses) || Object.keys(responses).filter((status) => !status.startsWith("x-")).length === 0) {
        warnings.push({
          message: `the operation declares no responses${version === "3.0" ? " (OpenAPI 3.0 requires at least one)" : ""}: its result is typed \`never\` (there is nothing to return)`,
          location: at([...itemPointer, ...below]),
          hint: "declare what it answers, e.g. `responses: { '200': { description: OK } }`",
        });
      }
    }
  }
  const webhooks = isObject(document.webhooks) ? Object.keys(document.webhooks).length : 0;
  const components = isObject(document.components) ? document.components : {};
  const schemas = isObject(components.schemas) ? Object.keys(components.schemas).length : 0;
  if (operations === 0 && webhooks === 0 && schemas === 0) {
    warnings.push({
      message: "nothing to generate yet: the document declares no operations, webhooks or component schemas",
      location: at(hasPaths ? ["paths"] : []),
    });
  }
  return warnings;
}

/** The candidate within two edits of `word` (case-insensitive), if there is exactly one best. */
function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
