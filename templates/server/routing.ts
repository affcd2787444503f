/**
 * Path matching with a segment trie, built once from the route templates. A lookup walks one trie level per
 * path segment (static children through a Map, then parameter patterns), so its cost depends on the path,
 * not on the number of routes.
 *
 * The path is the request's as sent: nothing is resolved before matching, so `..` is a segment like any other
 * (a parameter's value, or no route), never a step up, and nothing is percent-decoded before matching (`%61dmin`
 * is not `admin`). Static segments of templates are compared in the form a URL parser sends them (`<id>` as
 * `%3Cid%3E`); parameters are captured *raw* and decoded by the caller after the split, so `%2F` stays inside one
 * parameter instead of splitting the path.
 */

/** A parameterised segment: pure `{id}` or mixed like `file.{ext}` / `{base}...{head}`. */
interface PatternEdge<T> {
  /** Normalised template (param names blanked) so routes with different param names share the edge. */
  key: string;
  /** Undefined for a pure `{param}` segment (matches any non-empty segment without a regex). */
  regex: RegExp | undefined;
  /** Number of literal characters: more literal text = more specific = tried first. */
  literalLength: number;
  node: TrieNode<T>;
}

class TrieNode<T> {
  readonly staticChildren = new Map<string, TrieNode<T>>();
  readonly patterns: PatternEdge<T>[] = [];
  /** Route value per upper-case method, when a route ends here. */
  methods: Map<string, T> | undefined;
}

/** The successful result of a lookup. */
export interface RouteMatch<T> {
  value: T;
  /** Raw (undecoded) parameter values, in template order. */
  captures: string[];
}

/** A parsed path template. */
export interface TemplateInfo {
  /** Parameter names in the order their values are captured. */
  paramNames: string[];
}

const PARAM = /\{([^{}]+)\}/g;

/** Splits a template or request path into segments: "/a/b/" → ["a", "b", ""], "/" → [""]. */
export function splitPath(path: string): string[] {
  return (path.startsWith("/") ? path.slice(1) : path).split("/");
}

/** A method → value trie over path templates. */
export class RouteTrie<T> {
  private readonly root = new TrieNode<T>();

  /** Adds a route; throws if the same method and template shape was already added. */
  add(method: string, template: string, value: T): TemplateInfo {
    let node = this.root;
    const paramNames: string[] = [];
    for (const segment of splitPath(template)) {
      if (!segment.includes("{")) {
        const key = wireForm(segment);
        let next = node.staticChildren.get(key);
        if (!next) node.staticChildren.set(key, (next = new TrieNode<T>()));
        node = next;
        continue;
      }
      const names = [...segment.matchAll(PARAM)].map((m) => m[1]);
      paramNames.push(...names);
      const key = segment.replace(PARAM, "{}");
      let edge = node.patterns.find((p) => p.key === key);
      if (!edge) {
        edge = compileEdge<T>(segment, key);
        node.patterns.push(edge);
        // Most literal text first; the pure `{param}` edge (literalLength 0) last.
        node.patterns.sort((a, b) => b.literalLength - a.literalLength);
      }
      node = edge.node;
    }
    node.methods ??= new Map();
    if (node.methods.has(method)) throw new Error(`Duplicate route ${method} ${template}`);
    node.methods.set(method, value);
    return { paramNames };
  }

  /** Finds the route for `method` and `path`; backtracks so a static match never hides a parameter route. */
  match(method: string, path: string): RouteMatch<T> | undefined {
    const captures: string[] = [];
    // splitPath without the copy: "/a/b".split("/") is ["", "a", "b"]; the walk starts after the leading "".
    const segments = (RAW_SPECIALS.test(path) ? wireForm(path) : path).split("/");
    const value = find(this.root, segments, path.startsWith("/") ? 1 : 0, method, captures);
    return value === undefined ? undefined : { value, captures };
  }

  /** Methods served at `path` by any matching template (for 405 `Allow`); empty when the path is unknown. */
  allowedMethods(path: string): string[] {
    const segments = splitPath(RAW_SPECIALS.test(path) ? wireForm(path) : path);
    const methods = new Set<string>();
    const visit = (node: TrieNode<T>, index: number): void => {
      if (index === segments.length) {
        for (const m of node.methods?.keys() ?? []) methods.add(m);
        return;
      }
      const segment = segments[index];
      const child = node.staticChildren.get(segment);
      if (child) visit(child, index + 1);
      if (segment === "") return;
      for (const edge of node.patterns) if (edge.regex === undefined || edge.regex.test(segment)) visit(edge.node, index + 1);
    };
    visit(this.root, 0);
    return [...methods];
  }
}

/** Depth-first lookup (a plain recursive function: no closure allocated per request). */
function find<T>(node: TrieNode<T>, segments: string[], index: number, method: string, captures: string[]): T | undefined {
  if (index === segments.length) return node.methods?.get(method);
  const segment = segments[index];
  const child = node.staticChildren.get(segment);
  if (child) {
    const value = find(child, segments, index + 1, method, captures);
    if (value !== undefined) return value;
  }
  if (segment === "") return undefined; // parameters never match an empty segment
  for (const edge of node.patterns) {
    const mark = captures.length;
    if (edge.regex === undefined) captures.push(segment);
    else {
      const m = edge.regex.exec(segment);
      if (!m) continue;
      for (let g = 1; g < m.length; g++) captures.push(m[g]);
    }
    const value = find(edge.node, segments, index + 1, method, captures);
    if (value !== undefined) return value;
    captures.length = mark;
  }
  return undefined;
}

/** Characters a URL parser percent-encodes in a path (WHATWG's path percent-encode set, "?" and "#" aside). */
const RAW_SPECIALS = /[\0-\x20"<>`{}\x7F-\u{10FFFF}]/u;
const RAW_SPECIALS_ALL = /[\0-\x20"<>`{}\x7F-\u{10FFFF}]/gu;

/**
 * Text as a URL parser puts it on the wire: the characters it encodes percent-encoded (UTF-8), everything else
 * — existing escapes included — as it is. Templates' static segments are stored so, and a request path sent
 * with such characters raw (curl does) is read so.
 */
function wireForm(text: string): string {
  return text.replace(RAW_SPECIALS_ALL, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return c; // a lone surrogate
    }
  });
}

function compileEdge<T>(segment: string, key: string): PatternEdge<T> {
  const literalLength = segment.replace(PARAM, "").length;
  if (/^\{[^{}]+\}$/.test(segment)) return { key, regex: undefined, literalLength: 0, node: new TrieNode<T>() };
  const parts = segment.split(PARAM); // literal, name, literal, name, ..., literal
  let source = "^";
  // Greedy captures: earlier params take as much as possible, so in `{name}.{ext}` the extension is what
  // follows the *last* dot ("report.v2.md" → "report.v2" + "md").
  for (let i = 0; i < parts.length; i++) source += i % 2 === 0 ? escapeRegex(parts[i]) : "(.+)";
  return { key, regex: new RegExp(`${source}$`, "s"), literalLength, node: new TrieNode<T>() };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
