import type { OptionalKind, PropertySignatureStructure } from "ts-morph";
import { isMutation } from "../../templates/queries/index.js";
import type { ApiModel, Operation } from "../ir/model.js";
import { propertyKey } from "../ir/naming.js";
import type { FileTemplateSource } from "../package/templates.js";
import type { EmittedFile } from "./file.js";
import { commentText } from "./literal.js";
import { FileTemplate, typeText } from "./template.js";

/**
 * `queries.ts`: `createQueries(client)`, TanStack Query options for each operation of the client, from
 * templates/files/queries.ts. The runtime (templates/queries/) builds them from the client's own operations; this
 * fills the `Queries` interface, whose types are those of the client's methods (the same indexed accesses into
 * `schema.ts`): queries for every operation, mutations for those with a body or an unsafe method, infinite queries
 * for those the client paginates.
 */
export function emitQueries(model: ApiModel, source: FileTemplateSource): EmittedFile[] {
  const template = new FileTemplate(source);
  const queries = template.structure("Queries", "interface");
  queries.docs = [`TanStack Query options for each operation of ${commentText(model.title)} ${commentText(model.version)}.`];
  queries.properties = model.operations.map(queriesMember);
  return template.printModule("TanStack Query options: createQueries(client) with queryOptions, mutationOptions and infiniteQueryOptions per operation");
}

/** One operation's member: its type mirrors the client's method (`operationType` in client.ts) with the operation's name. */
function queriesMember(op: Operation): OptionalKind<PropertySignatureStructure> {
  const name = typeText.string(op.name);
  const typeRef = typeText.indexed("paths", op.path, op.method);
  const media = op.requestBody ? op.requestBody.preferred : "application/json";
  const mediaArg = media === "application/json" ? [] : [typeText.string(media)];
  let type: string;
  if (op.stream?.when) {
    type = typeText.reference("StreamingQueryOperation", [name, typeRef, typeText.string(media), typeText.string(op.stream.when.name)]);
  } else {
    const kinds: string[] = [];
    if (op.pagination) kinds.push(typeText.reference("InfiniteQueryOperation", [name, typeRef, typeText.string(op.pagination.param), ...mediaArg]));
    if (isMutation(op.wireMethod, op.requestBody !== undefined)) kinds.push(typeText.reference("MutationOperation", [name, typeRef, ...mediaArg]));
    if (kinds.length === 0) kinds.push(typeText.reference("QueryOperation", [name, typeRef, ...mediaArg]));
    type = kinds.join(" & ");
  }
  return { name: propertyKey(op.name), type, docs: [`\`${op.wireMethod} ${commentText(op.path)}\``] };
}
