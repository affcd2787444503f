import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { UserError, formatPointer, formatPosition, toDisplayPath, type SpecWarning } from "../errors.js";
import { bundle, type BundleWarning } from "./bundle.js";
import { markdownDescriptions } from "./descriptions.js";
import { SchemaScanner, breakInheritanceCycles, explicitMappings, typesDocument } from "./discriminators.js";
import { QUERYSTRING_MARKER, translateForTypes } from "./oas32.js";
import { lintDocument } from "./lint.js";
import { renameDuplicateOperationIds, type RenamedOperation } from "./operation-ids.js";
import { matchPathParameters } from "./path-parameters.js";
import { nullRefLines, parseSpec, tooDeep } from "./parse.js";
import { fileUri } from "./ids.js";
import { DEFAULT_MAX_SPEC_FILE_BYTES, readSpecFile, type ReadPolicy } from "./read.js";
import { isHttpUrl } from "../openapi/url.js";

export interface SpecFile {
  /** Absolute path, or the http(s) URL of a document fetched from the network. */
  path: string;
  /** SHA-256 of the file's bytes, hex. */
  sha256: string;
  /** The git blob id of the file's bytes (`git hash-object`), hex: lets `check` find this version in a repository. */
  gitBlob: string;
  /** How many bytes the file has (the output is capped relative to the spec's size: emit/budget.ts). */
  bytes: number;
  /** For a document from a URL: its HTTP validators and how it was had (fetched, a 304, or the cache). */
  remote?: { etag?: string; lastModified?: string; base: string; source: "fetched" | "not-modified" | "cache" };
}

/** Where the loader reads documents from URLs (see remote-documents.ts). */
export interface RemoteReader {
  /** Whether documents may be fetched from this URL (its origin is allowed). */
  mayFetch(url: string): boolean;
  /** The document at `url`, or a UserError; `referencedFrom` names the `$ref` that asks. */
  read(url: string, referencedFrom?: string): { bytes: Buffer; base: string; etag?: string; lastModified?: string; source: "fetched" | "not-modified" | "cache" };
}

export interface LoadedSpec {
  /** The bundled document: every `$ref` is internal. */
  document: Record<string, unknown>;
  /** `3.0`, `3.1` or `3.2`. */
  version: "3.0" | "3.1" | "3.2";
  /** Every file read, entry first. */
  files: SpecFile[];
  /** Absolute path of the entry file (or its URL). */
  entry: string;
  /** What was accepted but probably not meant (e.g. a `$ref` YAML read as a comment), in document order. */
  warnings: SpecWarning[];
  /** JSON pointers outside `components.schemas` that schema `$ref`s point at (see BundleResult). */
  foreignSchemaRefs: string[][];
  /** Operations whose operationId repeated an earlier one's, renamed in `document` (see operation-ids.ts). */
  renamedOperations: RenamedOperation[];
}

export interface LoadOptions {
  /** Told the absolute path of every file the loader is about to read (see loadSpec). */
  onRead?: (file: string) => void;
  /** Folders besides the spec's own folder tree that `$ref`s may read files from (absolute, or relative to cwd). */
  refRoots?: string[];
  /** Largest file read, in bytes. @default DEFAULT_MAX_SPEC_FILE_BYTES */
  maxSpecFileBytes?: number;
  /** Documents from http(s) URLs: the spec itself when `specPath` is a URL, and `$ref`s to allowed origins. */
  remote?: RemoteReader;
}

/**
 * Reads a spec (YAML or JSON) and every local file it `$ref`s, checks that it is OpenAPI 3.x, and bundles it into
 * one document. All problems are UserErrors naming the file and a line:column or JSON pointer.
 *
 * What is read is confined (see read.ts): `$ref`s reach only files inside the spec's folder tree (or `refRoots`),
 * only regular files, each at most `maxSpecFileBytes`; a file nested too deeply or whose YAML aliases expand too far
 * is refused (parse.ts). The bundled document then has HTML descriptions turned into Markdown, discriminators made
 * explicit (discriminators.ts), duplicate operationIds renamed, path parameters matched to the path template
 * (path-parameters.ts), and is linted for what the spec left out.
 *
 * `onRead` is told the absolute path of every file the loader is about to read — also the ones that turn out to be
 * missing or broken, so `generate --watch` knows what to watch even after a failed run (but not the ones refused
 * for lying outside the allowed folders: those are never watched either).
 */
export function loadSpec(specPath: string, cwd: string = process.cwd(), options: LoadOptions | LoadOptions["onRead"] = {}): LoadedSpec {
  const { onRead, refRoots = [], maxSpecFileBytes = DEFAULT_MAX_SPEC_FILE_BYTES, remote } = typeof options === "function" ? { onRead: options } : options;
  const entryIsUrl = isHttpUrl(specPath);
  const entry = entryIsUrl ? specPath : resolve(cwd, specPath);
  const display = (file: string) => toDisplayPath(file, cwd);
  const configuredRoots = refRoots.map((root) => resolve(cwd, root));
  const policy: ReadPolicy = { roots: entryIsUrl ? configuredRoots : [dirname(entry), ...configuredRoots], maxFileBytes: maxSpecFileBytes };
  const hashes = new Map<string, { sha256: string; gitBlob: string; bytes: number }>();
  /** Documents from URLs: their bytes (for warnings' line numbers) and how they were had. */
  const fetched = new Map<string, ReturnType<RemoteReader["read"]>>();
  /** Files with an `$id`, `$anchor`, `$dynamicAnchor` or `$self` key: only those are scanned for schema identifiers. */
  const withIds = new Set<string>();
  /** The keywords of every file read (ParsedSpec.keywords): the bundled document has no others of them. */
  const keywords = new Set<string>();
  /** What the parser said of the files without refusing them (a repeated YAML key). */
  const parseWarnings: SpecWarning[] = [];

  const readParsed = (file: string, referencedFrom?: string): unknown => {
    let bytes: Buffer;
    if (isHttpUrl(file)) {
      if (!remote?.mayFetch(file)) {
        throw new UserError(`documents are not fetched from ${new URL(file).origin}`, { location: referencedFrom ?? file });
      }
      onRead?.(file);
      const document = remote.read(file, referencedFrom);
      fetched.set(file, document);
      bytes = document.bytes;
    } else {
      bytes = readSpecFile(file, policy, { referencedFrom, display, onAllowed: onRead });
    }
    hashes.set(file, {
      sha256: createHash("sha256").update(bytes).digest("hex"),
      gitBlob: createHash("sha1").update(`blob ${bytes.length}\0`).update(bytes).digest("hex"),
      bytes: bytes.length,
    });
    const parsed = parseSpec(bytes.toString("utf8"), display(file));
    parseWarnings.push(...parsed.warnings);
    if (ID_KEYWORDS.some((keyword) => parsed.keywords.has(keyword))) withIds.add(file);
    for (const keyword of parsed.keywords) keywords.add(keyword);
    return parsed.document;
  };

  const root = readParsed(entry);
  const version = checkVersion(root, display(entry));
  let bundled: ReturnType<typeof bundle>;
  try {
    bundled = bundle({
      entry,
      document: root as Record<string, unknown>,
      readFile: (file, from) => readParsed(file, from),
      display,
      documentUri: (file) => fetched.get(file)?.base ?? fileUri(file),
      mayFetch: (url) => remote?.mayFetch(url) ?? false,
      mayDeclareIds: (file) => withIds.has(file),
    });
  } catch (error) {
    // Each file is at most MAX_NESTING deep, but chains of inlined `$ref`s across many files can still stack up.
    if (error instanceof RangeError) throw tooDeep(display(entry));
    throw error;
  }
  const { files, warnings, foreignSchemaRefs } = bundled;
  // The discriminator corrections' scan of the document rides on the descriptions' walk (when there is anything to find).
  const scanner = keywords.has("discriminator") || keywords.has("allOf") ? new SchemaScanner() : undefined;
  let document = markdownDescriptions(bundled.document, display(entry), scanner);
  document = breakInheritanceCycles(document);
  if (keywords.has("discriminator")) document = explicitMappings(document);
  const operationIds = renameDuplicateOperationIds(document, display(entry));
  document = operationIds.document;
  const templates = matchPathParameters(document, display(entry));
  document = templates.document;
  const lint = lintDocument(document, version, display(entry));
  documentKeywords.set(document, keywords);
  return {
    document,
    version,
    entry,
    files: files.map((path) => {
      const document = fetched.get(path);
      const remoteInfo = document && { base: document.base, source: document.source, ...(document.etag !== undefined ? { etag: document.etag } : {}), ...(document.lastModified !== undefined ? { lastModified: document.lastModified } : {}) };
      const hash = hashes.get(path);
      return { path, sha256: hash?.sha256 ?? "", gitBlob: hash?.gitBlob ?? "", bytes: hash?.bytes ?? 0, ...(remoteInfo ? { remote: remoteInfo } : {}) };
    }),
    warnings: [...parseWarnings, ...locateWarnings(warnings, display, (file) => fetched.get(file)?.bytes.toString("utf8") ?? readFileSync(file, "utf8")), ...operationIds.warnings, ...templates.warnings, ...lint],
    foreignSchemaRefs,
    renamedOperations: operationIds.renamed,
  };
}

/** The keys that declare schema identifiers (ids.ts reads them). */
const ID_KEYWORDS = ["$id", "$anchor", "$dynamicAnchor", "$self"];

/**
 * The keywords of the files each loaded document was bundled from (ParsedSpec.keywords): documentForTypes skips the
 * passes that look for keywords the document cannot have. Kept beside the document rather than in LoadedSpec because
 * documentForTypes is given the document alone (by the pipeline and the types thread).
 */
const documentKeywords = new WeakMap<object, ReadonlySet<string>>();

/**
 * Bundle warnings with a user-facing location. A null `$ref` in YAML is almost always `$ref: #/…` unquoted: the line
 * is found (the n-th such line is the n-th null `$ref` in document order) so the warning names `file:line:column`
 * and the ref the author wrote.
 */
function locateWarnings(warnings: BundleWarning[], display: (file: string) => string, textOf: (file: string) => string): SpecWarning[] {
  const byFile = new Map<string, ReturnType<typeof nullRefLines> | undefined>();
  return warnings.map((warning) => {
    const pointerLocation = formatPointer(display(warning.file), warning.pointer);
    if (!warning.nullRef) return { message: warning.message, location: pointerLocation, hint: warning.hint };
    if (!byFile.has(warning.file)) {
      let found: ReturnType<typeof nullRefLines> | undefined;
      try {
        found = nullRefLines(textOf(warning.file));
      } catch {
        found = undefined;
      }
      byFile.set(warning.file, found);
    }
    const lines = byFile.get(warning.file);
    const line = lines?.find((l) => l.pointer.join("/") === warning.pointer.join("/"));
    if (!line) return { message: warning.message, location: pointerLocation, hint: warning.hint };
    const written = line.comment ? `\`$ref: ${line.comment}\`` : "`$ref:` with no value";
    const looksLikeRef = line.comment !== undefined && /^#\S*$/.test(line.comment);
    return {
      message: `${written} is read as \`$ref: null\`${line.comment ? " (YAML takes an unquoted # for the start of a comment)" : ""}: the schema at ${formatPointer(display(warning.file), warning.pointer.slice(0, -1))} is left unconstrained (unknown)`,
      location: formatPosition(display(warning.file), line.line, line.column),
      hint: looksLikeRef ? `quote it: $ref: '${line.comment}'` : "give the $ref a value, quoted if it starts with #",
    };
  });
}

function checkVersion(root: unknown, file: string): LoadedSpec["version"] {
  if (root === null || typeof root !== "object" || Array.isArray(root)) {
    throw new UserError("not an OpenAPI document: the top level must be a mapping with an `openapi` field", {
      location: file,
    });
  }
  const doc = root as Record<string, unknown>;
  if ("swagger" in doc) {
    throw new UserError(`Swagger ${String(doc.swagger)} is not supported; specforge reads OpenAPI 3.0, 3.1 and 3.2`, {
      location: formatPointer(file, ["swagger"]),
      hint: "convert it to OpenAPI 3 first, e.g. `npx swagger2openapi spec.yaml -o openapi.yaml`, then point --spec at the result",
    });
  }
  if (!("openapi" in doc)) {
    throw new UserError("not an OpenAPI document: no `openapi` field at the top level", {
      location: formatPointer(file, []),
      hint: "an OpenAPI 3 document starts with `openapi: 3.1.0` (or 3.0.x)",
    });
  }
  const match = /^3\.([0-2])\.\d+(-.+)?$/.exec(String(doc.openapi));
  if (!match) {
    throw new UserError(`unsupported OpenAPI version ${JSON.stringify(doc.openapi)}; expected 3.0.x, 3.1.x or 3.2.x`, {
      location: formatPointer(file, ["openapi"]),
    });
  }
  return `3.${match[1]}` as LoadedSpec["version"];
}

/**
 * The document openapi-typescript is given: a copy of the bundled one with what it cannot read of OpenAPI 3.2
 * translated into what it can (oas32.ts), and discriminator values as the wire carries them (discriminators.ts);
 * with where the translation moved operations and querystring parameters, for the types emitter to put back.
 */
export function documentForTypes(bundled: Record<string, unknown>): { document: Record<string, unknown>; moved: { key: string; path: string; method: string }[]; querystringMarker?: string } {
  // A document of unknown origin may have any keyword.
  const has = (keyword: string) => documentKeywords.get(bundled)?.has(keyword) ?? true;
  const translation = translateForTypes(bundled, { defs: has("$defs") });
  // The loader adds no discriminator, and an `allOf` it adds (refWithConstraints) has no part for typesDocument to hoist.
  const document = has("discriminator") || has("allOf") ? typesDocument(translation.document) : translation.document;
  return { document, moved: translation.moved, ...(translation.querystring ? { querystringMarker: QUERYSTRING_MARKER } : {}) };
}
