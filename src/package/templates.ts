import { isAscii } from "node:buffer";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { OutputForm } from "../config/resolve.js";
import type { RuntimeKind } from "./fingerprint.js";
import { sha256, treeHash, type TreeFile } from "./hash.js";
import { BUILD_DIR, TEMPLATES_DIR } from "./root.js";
import { compileRuntime } from "./runtime-js.js";
import { templateFiles } from "./template-files.js";

/**
 * specforge's templates, read from the package: the runtime copied into every output (`templates/<kind>/`) and the
 * file templates the emitters fill (`templates/files/<kind>.ts`). Each is read once per process.
 */

/**
 * Written by the build: each runtime template compiled to JavaScript and declarations (src/package/runtime-js.ts),
 * and the three forms (`.ts`, `.js`, `.d.ts`) formatted with prettier's defaults, keyed by `<kind>/<file>.ts`.
 */
export const FORMATTED_TEMPLATES = join(BUILD_DIR, "templates.formatted.json");
export type FormattedTemplates = Record<string, { sourceHash: string; js: string; dts: string; formatted: { ts: string; js: string; dts: string } }>;

/**
 * One module of a runtime folder, in both forms it is shipped in: `<name>.ts` (the template itself) and
 * `<name>.js` + `<name>.d.ts` (compiled from it).
 */
export interface RuntimeTemplate {
  /** The module's name: its file name in `templates/<kind>/` without `.ts`. */
  name: string;
  /** The template's source. */
  ts: string;
  /** As TypeScript emits them. */
  js: string;
  dts: string;
  /** The same as prettier prints them with default settings, when the build compiled this exact source. */
  formatted?: { ts: string; js: string; dts: string };
}

/** The runtime of one output kind as an emitter copies it: its modules, and the form the output is written in. */
export interface RuntimeFolder {
  form: OutputForm;
  modules: readonly RuntimeTemplate[];
}

/**
 * JSON the build writes (templates.formatted.json, 1.2 MB), escaped to ASCII: read as Latin-1 when it is (the same
 * text), which skips UTF-8 decoding and gives one-byte strings — together ~3× faster to read and parse.
 */
export const buildJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);

export function readBuildJson(path: string): unknown {
  if (!existsSync(path)) return {};
  const bytes = readFileSync(path);
  return JSON.parse(bytes.toString(isAscii(bytes) ? "latin1" : "utf8"));
}

let formatted: FormattedTemplates | undefined;
const formattedTemplates = () => (formatted ??= readBuildJson(FORMATTED_TEMPLATES) as FormattedTemplates);

const fileTemplateSources = () => templateFiles("files").filter((file) => file.path.endsWith(".ts"));

/** The texts of templates/files/*.ts, sorted by name: they decide which runtime exports are declared (`compileRuntime`). */
export function fileTemplateTexts(): string[] {
  return fileTemplateSources().map((file) => file.bytes.toString("utf8"));
}

/**
 * What a runtime template's compiled form depends on: its source (`sourceSha256`, of its bytes), and the file
 * templates (which of its exports its declarations keep). The build stores it beside each compiled template; a run
 * from source recompiles on a mismatch.
 */
export function runtimeSourceHash(sourceSha256: string): string {
  return sha256(`${sourceSha256}\0${treeHash(fileTemplateSources())}`);
}

/** The `.ts` files of one runtime folder (`templates/client/`, …), sorted by name, with the SHA-256 of their bytes. */
export function runtimeSources(kind: RuntimeKind): { name: string; text: string; sha256: string }[] {
  return templateFiles(kind)
    .filter((file) => file.path.endsWith(".ts"))
    .map((file) => ({ name: file.path, text: file.bytes.toString("utf8"), sha256: file.sha256 }));
}

const runtimeCache = new Map<RuntimeKind, RuntimeTemplate[]>();

/**
 * The runtime of one output kind, compiled and formatted by the build; when a template has changed since the build
 * (running from source), the folders are compiled here and the output is formatted by the write step.
 */
export function runtimeTemplates(kind: RuntimeKind): RuntimeTemplate[] {
  let templates = runtimeCache.get(kind);
  if (!templates) {
    const sources = runtimeSources(kind);
    const built = formattedTemplates();
    const fresh = sources.every(({ name, sha256 }) => built[`${kind}/${name}`]?.sourceHash === runtimeSourceHash(sha256));
    const compiled = fresh ? undefined : compileRuntime(new Map(sources.map(({ name, text }) => [`${kind}/${name}`, text])), TEMPLATES_DIR, fileTemplateTexts());
    templates = sources.map(({ name, text }) => {
      const key = `${kind}/${name}`;
      const { js, dts } = compiled?.get(key) ?? built[key]!;
      return { name: name.replace(/\.ts$/, ""), ts: text, js, dts, formatted: compiled ? undefined : built[key]!.formatted };
    });
    runtimeCache.set(kind, templates);
  }
  return templates;
}

/** The generated files made from a file template (templates/files/<kind>.ts). */
export const FILE_TEMPLATE_KINDS = ["client", "resources", "server", "webhooks", "queries", "msw", "schemas", "index"] as const;
export type FileTemplateKind = (typeof FILE_TEMPLATE_KINDS)[number];

/**
 * A file template as every generation starts from it (src/emit/template.ts `prepare`): its statements, runtime
 * imports pointing into runtime/, slots with their ts-morph structure. The build prepares each template once.
 */
export interface PreparedTemplate {
  statements: PreparedStatement[];
}

export interface PreparedStatement {
  /** The statement as the template writes it, with its JSDoc (not the slot marker). */
  text: string;
  /** The template has a blank line between it and the statement before. */
  blankLineBefore: boolean;
  /**
   * The slot's name, when it is one: its declaration's; for an `import`/`export … from`, the keyword and the module
   * as the output names it (`import ./runtime/client/index.js`, `export ./client.js`).
   */
  slot?: string;
  /**
   * A slot's ts-morph structure (JSON), without its stand-in members; also that of every `import` and `export … from`
   * (the module forms of the output keep or drop each of their names).
   */
  structure?: unknown;
  /** The statement as JavaScript (its types stripped; "" when it has no code), for the `.js` of the module form. */
  js: string;
  /** The statement as a declaration ("" when the declarations need nothing of it), for the `.d.ts`. */
  dts: string;
  /** A function slot's body as JavaScript. */
  jsBody?: string;
}

/**
 * A file template's source, its prepared form when the build made it from this exact source, and the form the file
 * filled from it is written in (TypeScript when not said).
 */
export interface FileTemplateSource {
  kind: FileTemplateKind;
  text: string;
  prepared?: PreparedTemplate;
  form?: OutputForm;
}

/** Written by the build: each file template prepared, keyed by kind. */
export const PREPARED_TEMPLATES = join(BUILD_DIR, "templates.prepared.json");
type PreparedTemplates = Record<string, { sourceHash: string } & PreparedTemplate>;

let preparedTemplates: PreparedTemplates | undefined;
const fileCache = new Map<FileTemplateKind, FileTemplateSource>();

/** The file template of `client.ts`, `resources.ts`, `server.ts`, `webhooks.ts`, `queries.ts`, `msw.ts`, `schemas.ts` or `index.ts`. */
export function fileTemplate(kind: FileTemplateKind): FileTemplateSource {
  let template = fileCache.get(kind);
  if (template === undefined) {
    const file = fileTemplateSource(kind);
    template = { kind, text: file.bytes.toString("utf8") };
    // Running from source (the tests), the code that prepares templates may be newer than the build's output.
    if (!import.meta.url.endsWith(".ts")) {
      preparedTemplates ??= readBuildJson(PREPARED_TEMPLATES) as PreparedTemplates;
      const built = preparedTemplates[kind];
      if (built?.sourceHash === file.sha256) template.prepared = { statements: built.statements };
    }
    fileCache.set(kind, template);
  }
  return template;
}

/** templates/files/<kind>.ts as read (`templateFiles`); `sha256` is what the build records as its `sourceHash`. */
export function fileTemplateSource(kind: FileTemplateKind): TreeFile {
  const file = templateFiles("files").find((candidate) => candidate.path === `${kind}.ts`);
  if (file === undefined) throw new Error(`specforge: templates/files/${kind}.ts is missing`);
  return file;
}
