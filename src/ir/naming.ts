/**
 * Every name specforge derives from a spec string is made here: identifiers, casing, reserved words and
 * collisions. Rules are deterministic (they depend only on the input strings and their document order).
 */

/** Words that cannot be used as a binding name in strict-mode ES modules or TypeScript declarations. */
const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "implements interface let package private protected public static yield await arguments eval undefined NaN " +
    "Infinity any boolean never number object string symbol unknown bigint type"
  ).split(" "),
);

/** Property names that must not be created on plain objects (they reach Object.prototype behaviour). */
const UNSAFE_PROPERTIES = new Set(["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf"]);

/** Splits any string into words: on non-alphanumerics, lower→upper boundaries and acronym ends (`RLJob` → RL, Job). */
export function words(input: string): string[] {
  const normalised = input.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return normalised
    .replace(/([\p{Ll}\d])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

function capitalise(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1).toLowerCase();
}

/** `Create_RL_Training_Job` → `createRlTrainingJob`; `find pet by id` → `findPetById`. Not yet a safe identifier. */
export function camelCase(input: string): string {
  const parts = words(input);
  return parts.map((w, i) => (i === 0 ? w.toLowerCase() : capitalise(w))).join("");
}

/** An ASCII identifier: what a property key or binding may be written as without quotes. */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** True when `name` is an ASCII identifier (reserved words included: they are valid property keys). */
export function isIdentifierName(name: string): boolean {
  return IDENTIFIER.test(name);
}

/**
 * A valid, non-reserved ASCII identifier from any string: camelCased words; a leading digit gets `_`; a reserved
 * word gets a trailing `_`; an empty result becomes `fallback`.
 */
export function toIdentifier(input: string, fallback = "value"): string {
  let name = camelCase(input).replace(/[^A-Za-z0-9_$]/g, "");
  if (name === "") name = fallback;
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (RESERVED.has(name) || UNSAFE_PROPERTIES.has(name)) name = `${name}_`;
  return name;
}

/** `name` itself when it is an ASCII identifier a module may declare (not reserved), else `toIdentifier(name, fallback)`. */
export function declarableName(name: string, fallback?: string): string {
  return isIdentifierName(name) && !RESERVED.has(name) && !UNSAFE_PROPERTIES.has(name) ? name : toIdentifier(name, fallback);
}

/** A property key as emitted: bare when it is an identifier (but never `__proto__`), else a JSON string. */
export function propertyKey(name: string): string {
  return isIdentifierName(name) && name !== "__proto__" ? name : JSON.stringify(name);
}

/**
 * The one rule for names that are taken, for every name specforge makes or changes (client methods, options,
 * webhook names, hoisted schema names, duplicate operationIds): the first `foo` stays `foo`, later ones become
 * `foo_2`, `foo_3`, … in call order (so in document order). No name made from a spec by `toIdentifier` has such a
 * suffix, so a suffixed name never takes another's.
 */
export class NameRegistry {
  private readonly taken = new Set<string>();
  private readonly key: (name: string) => string;

  /**
   * `reserved`: names never handed out. `key`: what counts as the same name; by default names that differ only in
   * case are the same (they collide on case-insensitive file systems and confuse readers).
   */
  constructor(reserved: Iterable<string> = [], key: (name: string) => string = (name) => name.toLowerCase()) {
    this.key = key;
    for (const name of reserved) this.taken.add(key(name));
  }

  /** Keeps `name` from being handed out until it is released. */
  reserve(name: string): void {
    this.taken.add(this.key(name));
  }

  /** Makes a reserved name available again. */
  release(name: string): void {
    this.taken.delete(this.key(name));
  }

  isFree(name: string): boolean {
    return !this.taken.has(this.key(name));
  }

  claim(base: string): string {
    let name = base;
    for (let n = 2; this.taken.has(this.key(name)); n++) name = `${base}_${n}`;
    this.taken.add(this.key(name));
    return name;
  }
}

/**
 * FastAPI's default operationId is `{function}{path with non-word characters as _}_{method}`
 * (`create_model_v1_preview_models_post`). The path and method part repeats what the route already says, so it is
 * dropped: `create_model`.
 */
export function stripFastApiSuffix(operationId: string, path: string, method: string): string {
  const suffix = `${path.replace(/\W/g, "_")}_${method.toLowerCase()}`;
  if (operationId.length > suffix.length && operationId.endsWith(suffix)) {
    return operationId.slice(0, -suffix.length);
  }
  return operationId;
}

/** A method name for an operation without an operationId: `GET /pets/{petId}` → `getPetsByPetId`. */
function nameFromRoute(method: string, path: string): string {
  const segments = path
    .split("/")
    .filter(Boolean)
    .map((segment) => {
      const param = /^\{(.+)\}$/.exec(segment);
      return param ? `by ${param[1]}` : segment;
    });
  return camelCase([method.toLowerCase(), ...segments].join(" ")) || method.toLowerCase();
}

/** The base name (before collision handling) of an operation's client method and server handler. */
export function operationBaseName(operationId: string | undefined, method: string, path: string): string {
  if (operationId && operationId.trim() !== "") {
    const stripped = stripFastApiSuffix(operationId, path, method);
    const name = toIdentifier(stripped, "");
    if (name !== "") return name;
  }
  return toIdentifier(nameFromRoute(method, path), method.toLowerCase());
}

/** `base_url` → `baseUrl`, the client option for a server variable. */
export function serverVariableOption(variable: string): string {
  return toIdentifier(variable, "serverVariable");
}

/** `HTTPBearer` → `httpBearer`, `api_key` → `apiKey`: the client option carrying a security scheme's credential. */
export function securitySchemeOption(key: string): string {
  return toIdentifier(key, "credentials");
}

/** Words that describe every server alike, so they cannot tell two servers apart. */
const GENERIC_SERVER_WORDS = new Set(["server", "servers", "environment", "env", "api", "apis", "url", "base", "endpoint", "host", "the", "a", "an", "for", "of", "to", "and", "this", "our", "v1"]);
/** Host labels that name no particular server (`api.example.com`, `www.example.com`). */
const GENERIC_HOST_LABELS = new Set(["www", "api", "apis", "rest", "gateway"]);

/**
 * The client option that replaces a server's whole URL (servers without variables): `baseUrl` for the first; for
 * the others a name from what tells them apart — the server's `name` (OpenAPI 3.2: `eu` → `euUrl`), the description (`Sandbox server` → `sandboxUrl`), else the host
 * (`https://uploads.github.com` → `uploadsUrl`, `https://api.inference.example.ai` → `inferenceUrl`), else the
 * last path segment (`/v2` → `v2Url`), and only then the position (`server3Url`). Collisions are the registry's.
 */
export function serverUrlOption(url: string, description: string | undefined, index: number, earlierDescriptions: readonly (string | undefined)[] = [], name?: string): string {
  if (index === 0) return "baseUrl";
  const option = (parts: string[]) => `${toIdentifier(parts.join(" "), "server")}Url`;
  // OpenAPI 3.2's `name` is the server's own short, unique label.
  if (name !== undefined && words(name).length > 0) return option(words(name));
  const label = (text: string | undefined) => words(text ?? "").filter((w) => !GENERIC_SERVER_WORDS.has(w.toLowerCase()));
  const described = label(description);
  // A short label ("EU sandbox"), not a sentence about the server, and not one an earlier server has too.
  const shared = earlierDescriptions.some((other) => label(other).join(" ").toLowerCase() === described.join(" ").toLowerCase());
  if (described.length > 0 && described.length <= 3 && !shared) return option(described);
  let host = "";
  let path = /^[a-z][a-z0-9+.-]*:/i.test(url) ? "" : url; // a relative URL ("/v2") is only a path
  try {
    const parsed = new URL(url);
    host = parsed.hostname;
    path = parsed.pathname;
  } catch {
    // relative, or not a URL at all
  }
  const labels = host.split(".").filter(Boolean);
  // The registrable domain and its TLD (`github.com`) are shared by a vendor's servers; a label before them differs.
  const distinct = (labels.length > 2 ? labels.slice(0, -2) : labels.length === 1 ? labels : []).filter((l) => !GENERIC_HOST_LABELS.has(l.toLowerCase()) && !/^\d+$/.test(l));
  if (distinct.length > 0) return option([distinct[0]!]);
  const segment = path.split("/").filter((s) => s !== "" && !/^\{.*\}$/.test(s)).at(-1);
  if (segment && words(segment).length > 0) return option(words(segment));
  if (labels.length === 2 && !GENERIC_HOST_LABELS.has(labels[0]!.toLowerCase())) return option([labels[0]!]);
  return `server${index + 1}Url`;
}
