import type { WebhooksConfig } from "../config/resolve.js";
import type { AdapterName } from "../config/resolve.js";
import type { ApiModel } from "../ir/model.js";
import type { RuntimeKind } from "../package/fingerprint.js";
import { traceTime } from "../package/memory-trace.js";
import type { OutputForm } from "../config/resolve.js";
import type { FileTemplateKind, FileTemplateSource, RuntimeFolder, RuntimeTemplate } from "../package/templates.js";
import { emitClient, omittedClientExports } from "./client.js";
import type { SchemaLibrary } from "../config/resolve.js";
import type { EmittedFile } from "./file.js";
import { emitIndex } from "./index-file.js";
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
  schemas?: boolean;
  /** The server's framework adapters (runtime/adapters/, re-exported from index.ts). */
  adapters?: readonly AdapterName[];
}

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
    add(...client, ...emitRuntime("client", templates.runtime("client"), client));
    traceTime("client emitted");
  }
  if (outputs.server) {
    const data = serverRuntimeData(model);
    warnings.push(...data.warnings);
    add(...emitServer(model, data, templates.file("server")));
    add(...emitServerValidators(data.document, data.routes, data.generated.superLinearPatterns ?? [], form), ...emitRuntime("server", templates.runtime("server")));
    traceTime("server emitted");
  }
  if (webhooks) {
    add(...emitWebhooks(model, templates.file("webhooks"), inputs.webhooks), ...emitRuntime("webhooks", templates.runtime("webhooks")));
    traceTime("webhooks emitted");
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
  const client = outputs.client && { omitted: omittedClientExports(model) };
  const adapters = outputs.server ? (outputs.adapters ?? []) : [];
  const index = emitIndex({ client, server: outputs.server, webhooks, adapters, schemas: outputs.schemas ?? false }, templates.file("index"));
  // Only the adapters index.ts re-exports are copied (with what they import).
  if (adapters.length > 0) add(...emitRuntime("adapters", templates.runtime("adapters"), [index]));
  add(index);
  return { files, warnings };
}

/** A runtime file as if it sat at the output's root (`../server/x.js` read as `./runtime/server/x.js`), for emitRuntime's closure. */
function asImporterFromOutputRoot(file: EmittedFile): EmittedFile {
  return { ...file, content: file.content.replace(/(["'])\.\.\/(\w+)\//g, "$1./runtime/$2/") };
}
