import type { OptionalKind, PropertySignatureStructure } from "ts-morph";
import type { MswOperationRow } from "../../templates/msw/index.js";
import type { ApiModel, Operation, Server } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { commentText } from "./literal.js";
import { contentOf, schemaDocument } from "./server-data.js";
import { FileTemplate, typeText } from "./template.js";

/**
 * `msw.ts`: MSW request handlers, from templates/files/msw.ts: `createMswHandlers()` (a mock answer for every
 * operation) and `mswHandler.<operation>(answer)` with answers typed from schema.ts. This fills the servers, the
 * operations' paths and responses (as the router's route table writes them, so the server's mock makes the answers)
 * with the schemas they reach, and the `MswHandlers` interface.
 */
export function emitMsw(model: ApiModel, source: FileTemplateSource): EmittedFile[] {
  const template = new FileTemplate(source);
  const operations = mswOperations(model);
  template.fillData("servers", model.servers.map(serverUrl));
  template.fillData("document", schemaDocument(model, operations));
  template.fillData("operations", operations);
  const handlers = template.structure("MswHandlers", "interface");
  handlers.docs = [`One MSW handler per operation of ${commentText(model.title)} ${commentText(model.version)}, answering as told: \`mswHandler.<operation>({ status, body })\`.`];
  handlers.properties = model.operations.map(mswMember);
  return template.printModule("MSW request handlers: createMswHandlers() with mock answers, mswHandler.<operation>(answer) with typed ones");
}

/** The operations as the runtime reads them (templates/msw/index.ts `MswOperationRow`). */
function mswOperations(model: ApiModel): MswOperationRow[] {
  return model.operations.map((op) => [op.name, op.wireMethod, op.paths, op.server, Object.fromEntries(op.responses.map((r) => [r.status, r.content.length > 0 ? { content: contentOf(r.content) } : {}]))]);
}

/**
 * A server's URL as the client calls it by default: its variables' defaults in place. A URL that names no host
 * (DigitalOcean's `https://` for uploads) is "": any origin.
 */
function serverUrl(server: Server): string {
  const url = server.variables.reduce((text, variable) => text.split(`{${variable.name}}`).join(variable.default), server.url);
  return /^[a-z][a-z\d+.-]*:\/*$/i.test(url) ? "" : url;
}

function mswMember(op: Operation): OptionalKind<PropertySignatureStructure> {
  const answer = typeText.reference("MswAnswerOrResolver", [typeText.indexed("paths", op.path, op.method)]);
  return { name: propertyKey(op.name), type: `(answer: ${answer}, options?: MswHandlerOptions) => HttpHandler`, docs: [`\`${op.wireMethod} ${commentText(op.path)}\``] };
}
