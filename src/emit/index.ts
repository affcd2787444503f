import type { WebhooksConfig } from "../config/resolve.js";
import type { AdapterName } from "../config/resolve.js";
import type { ApiModel } from "../ir/model.js";
import type { RuntimeKind } from "../package/fingerprint.js";
import { traceTime } from "../package/memory-trace.js";
import type { OutputForm } from "../config/resolve.js";
import type { FileTemplateKind, FileTemplateSource, RuntimeFolder, RuntimeTemplate } from "../package/templates.js";
import { escapePointerSegment } from "../openapi/pointer.js";
import { emitClient, omittedClientExports } from "./client.js";
import type { SchemaLibrary } from "../config/resolve.js";
import type { EmittedFile } from "./file.js";
import { emitIndex } from "./index-file.js";
import { resourceNaming, type ResourceOverrides } from "../ir/resources.js";
import type { ResourceTableMethod } from "../load/resource-table.js";
import type { SpecWarning } from "../errors.js";
import { emitResources } from "./resources.js";
import { emitMsw } from "./msw.js";
import { emitQueries } from "./queries.js";
import { emitRuntime } from "./runtime.js";
import { serverRuntimeData } from "./server-data.js";
import type { EmitterWarning } from "./server-patterns.js";
import { emitServer } from "./server.js";
import { emitServerValidators } from "./server-validators.js";
import { emitSchemas } from "./schemas.js";
import { superLinearPatterns } from "./server-patterns.js";
import { emitTypes, type TypesInput } from "./types.js";
import type { OutputBudget } from "./budget.js";
import { emitWebhooks } from "./webhooks.js";

/** What the emitters are given besides the model. Emitters read no file: the pipeline hands them everything. */
export interface EmitInputs {
  /**
   * The document openapi-typescript is given (the loader's corrected, 3.2-translated copy) and where the translation
   * moved operations and querystring parameters; asked only when the types are emitted. Absent: the caller emits
   * schema.ts itself (the pipeline does, in a worker thread, while these emitters run).
   */
  typesDocument?: () => TypesInput;
  /** The output's cap (budget.ts): every file is counted as it is emitted. */
  budget?: OutputBudget;
  /** What the `schemas` output is written with (config `schemas.library`). @default "specforge" */
  schemasLibrary?: SchemaLibrary;
  /** The config's defaults of the webhook receiver (scheme, eventType). */
  webhooks?: WebhooksConfig;
  /** specforge's templates (src/package/templates.ts). */
  templates: {
    file(kind: FileTemplateKind): FileTemplateSource;
    runtime(kind: RuntimeKind): readonly RuntimeTemplate[];
  };
  /**
   * How the modules are written: TypeScript (`ts`), or JavaScript and declarations (`js`). Every file template and
   * every runtime folder is written in either: the emitters are handed templates that carry the form.
   */
  form: OutputForm;
}

/** Which outputs to emit besides the types (schema.ts) and index.ts, which always are. */
export interface EmitOutputs {
  client: boolean;
  server: boolean;
  webhooks: boolean;
  /** How the client reads (config `client`): one method per operation (the default), or nested resources. */
  clientStyle?: ClientStyle | undefined;
  /** TanStack Query options (with the client). */
  queries?: boolean;
  /** MSW request handlers. */
  msw?: boolean;
  schemas?: boolean;
  /** The server's framework adapters (runtime/adapters/, re-exported from index.ts). */
  adapters?: readonly AdapterName[];
}

/** The client's style as the config resolves it (`client.style`, `client.resources`). */
export type ClientStyle =
  | { style: "flat" }
  | {
      style: "resources";
      /** The user's names (`ResourceOverrides`). */
      resources: ResourceOverrides;
      /** Where the map was written, for warnings about its keys: a JSON pointer into the config, or the flag. */
      resourcesAt: string;
      /** Absolute path of the resource table (a stainless.yml-like file) the names come from, when they do. */
      table?: string;
      /** Where each key of `resources` the table gave was written (its method's place in the table). */
      tableMethods?: Readonly<Record<string, ResourceTableMethod>>;
      /** What reading the table found to warn about (an endpoint named twice). */
      tableWarnings?: readonly SpecWarning[];
    };

/**
 * Every output file of a spec, in memory: schema.ts (openapi-typescript), then for each output its file (filled
 * from templates/files/) and its runtime (copied from templates/<kind>/), and index.ts. Not yet stamped or formatted.
 */
export function emitFiles(model: ApiModel, outputs: EmitOutputs, inputs: EmitInputs): { files: EmittedFile[]; warnings: EmitterWarning[] } {
  const { form, budget } = inputs;
  const templates = {
    file: (kind: FileTemplateKind): FileTemplateSource => ({ ...inputs.templates.file(kind), form }),
    runtime: (kind: RuntimeKind): RuntimeFolder => ({ form, modules: inputs.templates.runtime(kind) }),
  };
  const files: EmittedFile[] = [];
  // (Pushed through here: each file counted against the output's cap as soon as it is made.)
  const add = (...made: EmittedFile[]) => {
    for (const file of made) budget?.add(file.path, file.content);
    files.push(...made);
  };
  if (inputs.typesDocument) add(emitTypes(inputs.typesDocument(), budget));
  traceTime(inputs.typesDocument ? "types emitted" : "emitters loaded");
  const warnings: EmitterWarning[] = [];
  const webhooks = outputs.webhooks && model.webhooks.length > 0;
  if (outputs.client) {
    // Only the runtime modules client.ts imports (with what they import): what the spec does not use is not copied.
    const client = emitClient(model, templates.file("client"));
    const style = outputs.clientStyle;
    const resources = style?.style === "resources" ? emitResourceClient(model, style, templates.file("resources"), warnings) : [];
    add(...client, ...resources, ...emitRuntime("client", templates.runtime("client"), [...client, ...resources]));
    traceTime("client emitted");
  }
  if (outputs.server) {
    const data = serverRuntimeData(model);
    warnings.push(...data.warnings);
    // Only the runtime modules server.ts and its validators import (with what they import), as for the client.
    const server = [...emitServer(model, data, templates.file("server")), ...emitServerValidators(data.document, data.routes, data.generated.superLinearPatterns ?? [], form)];
    add(...server, ...emitRuntime("server", templates.runtime("server"), server));
    traceTime("server emitted");
  }
  if (webhooks) {
    // Only the runtime modules webhooks.ts imports: the signature schemes it carries, not every vendor's.
    const webhooksFile = emitWebhooks(model, templates.file("webhooks"), inputs.webhooks);
    add(...webhooksFile, ...emitRuntime("webhooks", templates.runtime("webhooks"), webhooksFile));
    traceTime("webhooks emitted");
  }
  const queries = Boolean(outputs.queries && outputs.client);
  if (queries) {
    add(...emitQueries(model, templates.file("queries")), ...emitRuntime("queries", templates.runtime("queries")));
    traceTime("queries emitted");
  }
  if (outputs.msw) {
    // The answers are made by the server's mock: its modules come along (all of them already with the server).
    const msw = emitMsw(model, templates.file("msw"));
    add(...msw, ...emitRuntime("msw", templates.runtime("msw")), ...(outputs.server ? [] : emitRuntime("server", templates.runtime("server"), msw)));
    traceTime("msw emitted");
  }
  if (outputs.schemas) {
    const slow = new Set(superLinearPatterns(model.document).map((found) => found.pattern));
    const schemas = emitSchemas(model, templates.file("schemas"), { form, library: inputs.schemasLibrary ?? "specforge", superLinearPatterns: slow });
    const schemasRuntime = emitRuntime("schemas", templates.runtime("schemas"), schemas);
    add(...schemas, ...schemasRuntime);
    // The validation engine (the router's modules that runtime/schemas/ imports), unless the router brought it all.
    if (!outputs.server) add(...emitRuntime("server", templates.runtime("server"), schemasRuntime.map(asImporterFromOutputRoot)));
    traceTime("schemas emitted");
  }
  const client = outputs.client && { omitted: omittedClientExports(model), resources: outputs.clientStyle?.style === "resources" };
  const adapters = outputs.server ? (outputs.adapters ?? []) : [];
  const index = emitIndex({ client, server: outputs.server, webhooks, adapters, queries, msw: Boolean(outputs.msw), schemas: outputs.schemas ?? false }, templates.file("index"));
  // Only the adapters index.ts re-exports are copied (with what they import).
  if (adapters.length > 0) add(...emitRuntime("adapters", templates.runtime("adapters"), [index]));
  add(index);
  return { files, warnings };
}

/**
 * The resource-style client's files, and a warning for each name two operations would have shared (each got one of
 * its own, see `resourceNaming`) and each key of the user's map that matches no operation.
 */
function emitResourceClient(model: ApiModel, style: Extract<ClientStyle, { style: "resources" }>, source: FileTemplateSource, warnings: EmitterWarning[]): EmittedFile[] {
  const naming = resourceNaming(model, style.resources);
  const pointers = new Map(model.operations.map((op) => [op.name, op.pointer]));
  for (const { name, resolved } of naming.collisions) {
    const renamed = resolved.filter((entry) => entry.name !== name);
    if (renamed.length === 0) continue;
    warnings.push({
      message: `resource-style client: ${resolved.length > 1 ? `${resolved.length} operations would be` : "an operation would be"} \`${name}\`; ${renamed.map((entry) => `${entry.operation} is \`${entry.name}\``).join(", ")}`,
      pointer: pointers.get(renamed[0]!.operation) ?? [],
      hint: style.table ? "give them names of their own in the resource table" : "name them in the config's `client.resources` map (`\"METHOD /path\": \"resource.method\"`)",
    });
  }
  for (const key of naming.unusedOverrides) {
    const method = style.tableMethods?.[key];
    if (method) {
      warnings.push({
        message: `resource table: \`${method.path}\` names the endpoint \`${method.endpoint}\`, which the spec does not have: \`${method.name}\` is left out`,
        pointer: [],
        location: method.location,
        hint: "the endpoint is the method and the path as the spec's `paths` write it (path parameters may have other names)",
      });
      continue;
    }
    warnings.push({
      message: `\`client.resources\` key ${JSON.stringify(key)} matches no operation (nor a path prefix) of the spec`,
      pointer: [],
      location: `${style.resourcesAt}/${escapePointerSegment(key)}`,
      hint: "keys are a path prefix (`/organization`), `METHOD /path`, an operationId or a flat client method name",
    });
  }
  return emitResources(model, naming, source);
}

/** A runtime file as if it sat at the output's root (`../server/x.js` read as `./runtime/server/x.js`), for emitRuntime's closure. */
function asImporterFromOutputRoot(file: EmittedFile): EmittedFile {
  return { ...file, content: file.content.replace(/(["'])\.\.\/(\w+)\//g, "$1./runtime/$2/") };
}
