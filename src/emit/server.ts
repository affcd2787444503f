import type { OptionalKind, PropertySignatureStructure } from "ts-morph";
import type { ApiModel, Operation, SecurityScheme } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import { tsMorph } from "../package/ts-morph.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { commentText } from "./literal.js";
import type { ServerRuntimeData } from "./server-data.js";
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

  template.fillData("document", data.document);
  template.fillData("routes", data.routes);
  template.fillData("generated", data.generated);

  template.structure("SecurityAlternatives", "interface").properties = alternatives.map(
    (alternative): Member => ({
      name: propertyKey(alternative.map((scheme) => scheme.key).join(" & ")),
      type: tsMorph.Writers.objectType({ properties: alternative.map((scheme) => ({ name: propertyKey(scheme.key), type: credentialsType(scheme) })) }),
    }),
  );
  template.structure("Handlers", "interface").properties = model.operations.map(handlerMember);

  return template.printModule("route stubs: createRouter() with typed handlers, validation, auth and SSE");
}

function handlerMember(op: Operation): Member {
  const json = op.requestBody?.content.some((c) => c.type === "application/json");
  const type = typeText.reference("Handler", [typeText.indexed("paths", op.path, op.method), "Auth", ...(json ? [typeText.string("application/json")] : [])]);
  const lines = [op.summary, `\`${op.wireMethod} ${op.paths.join("` and `")}\``].filter(Boolean).map((t) => commentText(t!));
  if (op.deprecated) lines.push("@deprecated");
  return { name: propertyKey(op.name), hasQuestionToken: true, type, docs: [lines.join("\n\n")] };
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
