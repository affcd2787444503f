import type { OptionalKind, PropertySignatureStructure, WriterFunction } from "ts-morph";
import type { ApiModel, EncodingHeader, Operation, SecurityScheme } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import { tsMorph } from "../package/ts-morph.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { commentText } from "./literal.js";
import { LongTexts } from "./long-text.js";
import { parsePointer, resolvePointer } from "../openapi/pointer.js";
import { validatedPartHeaders, type ServerRuntimeData } from "./server-data.js";
import { FileTemplate, namedImports, typeText } from "./template.js";

type Member = OptionalKind<PropertySignatureStructure>;

/** The credential types of the server runtime (templates/server/types.ts), one per kind of scheme. */
const CREDENTIAL_TYPES = ["ApiKeyCredentials", "BasicCredentials", "BearerCredentials", "HttpCredentials", "OAuth2Credentials"] as const;
type CredentialType = (typeof CREDENTIAL_TYPES)[number];

/**
 * `server.ts`: `createRouter(handlers, options)` serving every route of the spec with validation, auth, limits and
 * SSE, plus the `Handlers` interface (one optional typed handler per operation, named like the client's methods),
 * from templates/files/server.ts. The route table and schemas are data (server-data.ts); behaviour lives in the
 * runtime copied from templates/server/.
 */
export function emitServer(model: ApiModel, data: ServerRuntimeData, source: FileTemplateSource): EmittedFile[] {
  const template = new FileTemplate(source);
  const alternatives = credentialAlternatives(model);

  // The credential types only where an alternative of `SecurityAlternatives` uses them.
  const used = new Set<string>(alternatives.flatMap((alternative) => alternative.map(credentialsType)));
  const runtimeImports = template.structure("import ./runtime/server/index.js", "import");
  runtimeImports.namedImports = namedImports(runtimeImports).filter(
    (specifier) => !(CREDENTIAL_TYPES as readonly string[]).includes(specifier.name) || used.has(specifier.name),
  );

  // One schema (and security scheme) per line, one route per line, one pattern per line.
  template.fillData("document", data.document, 3);
  template.fillData("routes", data.routes);
  template.fillData("generated", data.generated, 2);

  template.structure("SecurityAlternatives", "interface").properties = alternatives.map(
    (alternative): Member => ({
      name: propertyKey(alternative.map((scheme) => scheme.key).join(" & ")),
      type: tsMorph.Writers.objectType({ properties: alternative.map((scheme) => ({ name: propertyKey(scheme.key), type: credentialsType(scheme) })) }),
    }),
  );
  const texts = new LongTexts();
  template.structure("Handlers", "interface").properties = model.operations.map((op) => handlerMember(op, model.document, texts));

  return template.printModule("route stubs: createRouter() with typed handlers, validation, auth and SSE");
}

function handlerMember(op: Operation, document: unknown, texts: LongTexts): Member {
  const json = op.requestBody?.content.some((c) => c.type === "application/json");
  const parts = partHeadersType(op, document);
  const args = [typeText.indexed("paths", op.path, op.method), "Auth", ...(json ? [typeText.string("application/json")] : parts ? ["never"] : [])];
  const type: Member["type"] = parts
    ? (writer) => {
        writer.write(`Handler<${args.join(", ")}, `);
        parts(writer);
        writer.write(">");
      }
    : typeText.reference("Handler", args);
  const lines = [op.summary && texts.use(op.summary, `\`${op.name}\``), `\`${op.wireMethod} ${op.paths.join("` and `")}\``].filter(Boolean).map((t) => commentText(t!));
  if (op.deprecated) lines.push("@deprecated");
  return { name: propertyKey(op.name), hasQuestionToken: true, type, docs: [lines.join("\n\n")] };
}

/**
 * `ctx.partHeaders` of an operation whose multipart media types declare part headers, the union of each one's:
 * `multipart/form-data`'s by property (absent when no part of it was sent), one record per part; parts by position
 * (3.2 `prefixEncoding`, `itemEncoding`) a tuple parallel to the body's, one record per part, beside the empty record
 * a request of another media type gets. Each declared header is typed by its schema as the router coerces it
 * (optional unless `required`, which the router enforces on every part sent).
 */
function partHeadersType(op: Operation, document: unknown): WriterFunction | undefined {
  const types: WriterFunction[] = [];
  let positional = false;
  for (const media of op.requestBody?.content ?? []) {
    const type = media.type.toLowerCase();
    if (!type.startsWith("multipart/")) continue;
    if (type.startsWith("multipart/form-data") && media.encoding) {
      const properties = Object.entries(media.encoding).flatMap(([property, encoding]): Member[] => {
        const record = headersRecordType(encoding.headers, document);
        return record ? [{ name: propertyKey(property), hasQuestionToken: true, type: (writer) => (writer.write("Array<"), record(writer), writer.write(">")) }] : [];
      });
      if (properties.length > 0) types.push(tsMorph.Writers.objectType({ properties }));
    } else if (!type.startsWith("multipart/form-data") && media.positional) {
      const prefix = media.positional.prefix.map((encoding) => headersRecordType(encoding.headers, document));
      const items = media.positional.items && headersRecordType(media.positional.items.headers, document);
      if (!items && prefix.every((record) => record === undefined)) continue;
      positional = true;
      const none: WriterFunction = (writer) => writer.write(NO_PART_HEADERS);
      types.push((writer) => {
        writer.write("[");
        for (const record of prefix) (record ?? none)(writer), writer.write("?, ");
        writer.write("...Array<");
        (items ?? none)(writer);
        writer.write(">]");
      });
    }
  }
  if (types.length === 0) return undefined;
  if (positional) types.push((writer) => writer.write(NO_PART_HEADERS));
  return types.length === 1 ? types[0] : (writer) => types.forEach((type, i) => (i > 0 && writer.write(" | "), type(writer)));
}

/** The runtime's `NoPartHeaders`, written out (the generated file imports only what every server uses). */
const NO_PART_HEADERS = "Record<string, never>";

/** One part's declared headers as a type literal (over several lines, as prettier writes them: the printer reads no other form). */
function headersRecordType(declared: readonly EncodingHeader[], document: unknown): WriterFunction | undefined {
  const headers = validatedPartHeaders(declared);
  if (headers.length === 0) return undefined;
  return tsMorph.Writers.objectType({
    properties: headers.map((header) => ({ name: propertyKey(header.name), hasQuestionToken: !header.required, type: headerValueType(header.schema, document, 0) })),
  });
}

/** The TypeScript type of a part header's value as the router coerces it (a header parameter of style `simple`). */
function headerValueType(schema: unknown, document: unknown, depth: number): string {
  if (schema === false) return "never";
  if (schema === null || typeof schema !== "object" || Array.isArray(schema) || depth > 8) return "unknown";
  const node = schema as Record<string, unknown>;
  if (typeof node.$ref === "string" && node.$ref.startsWith("#")) return headerValueType(resolvePointer(document, parsePointer(node.$ref.slice(1))), document, depth + 1);
  const literal = (value: unknown) =>
    typeof value === "string" ? typeText.string(value) : typeof value === "number" || typeof value === "boolean" ? String(value) : value === null ? "null" : undefined;
  if ("const" in node) return literal(node.const) ?? "unknown";
  if (Array.isArray(node.enum) && node.enum.length > 0) {
    const members = node.enum.map(literal);
    if (members.every((member) => member !== undefined)) return typeText.union([...new Set(members as string[])]);
  }
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter((type): type is string => typeof type === "string");
  const mapped = types.map((type) => {
    switch (type) {
      case "string":
        return "string";
      case "integer":
      case "number":
        return "number";
      case "boolean":
        return "boolean";
      case "null":
        return "null";
      case "array":
        return `Array<${headerValueType(node.items, document, depth + 1)}>`;
      default:
        return "Record<string, unknown>";
    }
  });
  return mapped.length > 0 ? typeText.union([...new Set(mapped)]) : "unknown";
}

/**
 * The distinct security alternatives of the spec's operations whose schemes the router can read, each as its
 * schemes in spec order: the members of `Credentials`.
 */
function credentialAlternatives(model: ApiModel): SecurityScheme[][] {
  const byKey = new Map(model.securitySchemes.map((scheme) => [scheme.key, scheme]));
  const seen = new Set<string>();
  const out: SecurityScheme[][] = [];
  for (const op of model.operations) {
    for (const alternative of op.security.requirements) {
      if (alternative.length === 0) continue;
      const schemes = alternative.map(({ scheme }) => byKey.get(scheme));
      if (schemes.some((scheme) => scheme === undefined || scheme.type === "unsupported")) continue;
      const id = JSON.stringify(alternative.map(({ scheme }) => scheme));
      if (seen.has(id)) continue;
      seen.add(id);
      out.push(schemes as SecurityScheme[]);
    }
  }
  return out;
}

/** The runtime type of one scheme's credentials (templates/server/types.ts). */
function credentialsType(scheme: SecurityScheme): CredentialType {
  switch (scheme.type) {
    case "http": {
      const lower = scheme.scheme.toLowerCase();
      return lower === "bearer" ? "BearerCredentials" : lower === "basic" ? "BasicCredentials" : "HttpCredentials";
    }
    case "apiKey":
      return "ApiKeyCredentials";
    default:
      return "OAuth2Credentials";
  }
}
