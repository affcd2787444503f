/**
 * Strings for mock values: a string in each `format` (RFC 3339 dates and times, UUIDs, e-mail addresses, URIs,
 * host names, IP addresses, base64 `byte`, …), and a string that a `pattern` matches — each within length bounds
 * and different per `variant`, so that items that must be unique can be. Every string made here is checked before
 * it is returned: a format's own test, the pattern's native regex.
 */

/** Length bounds in code points, as JSON Schema counts them. */
export interface LengthBounds {
  min: number;
  max: number;
}

/** Code points of `text` (JSON Schema's `minLength`/`maxLength` count these, not UTF-16 units). */
export function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) i++;
    count++;
  }
  return count;
}

const within = (text: string, bounds: LengthBounds) => {
  const length = codePoints(text);
  return length >= bounds.min && length <= bounds.max;
};

/** `text` made `length` code points long by repeating `fill` (only ever called with ASCII text). */
const padded = (text: string, length: number, fill = "x") => (text.length >= length ? text : text + fill.repeat(length - text.length));

const two = (n: number) => String(n).padStart(2, "0");
const hex = (n: number, width: number) => n.toString(16).padStart(width, "0").slice(-width);

function validDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^(\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
const IPV4_PART = /^(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

const dateTest = (text: string) => {
  const m = DATE.exec(text);
  return !!m && validDate(Number(m[1]), Number(m[2]), Number(m[3]));
};
const timeTest = (text: string) => {
  const m = TIME.exec(text);
  return !!m && Number(m[1]) < 24 && Number(m[2]) < 60 && Number(m[3]) < 60 && (m[5] === undefined || (Number(m[6]) < 24 && Number(m[7]) < 60));
};
const hostnameTest = (text: string) => text.length <= 253 && text.split(".").every((label) => LABEL.test(label));
const ipv4Test = (text: string) => {
  const parts = text.split(".");
  return parts.length === 4 && parts.every((part) => IPV4_PART.test(part));
};
const emailTest = (text: string) => {
  const at = text.lastIndexOf("@");
  return at > 0 && /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/i.test(text.slice(0, at)) && text.slice(at + 1).includes(".") && hostnameTest(text.slice(at + 1));
};
const uriTest = (text: string) => /^[a-z][a-z0-9+.-]*:[^\s]*$/i.test(text) && /[/:]/.test(text.slice(text.indexOf(":") + 1) + "/");

function base64(bytes: readonly number[]): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += alphabet[(n >> 18) & 63]! + alphabet[(n >> 12) & 63]! + (b === undefined ? "=" : alphabet[(n >> 6) & 63]!) + (c === undefined ? "=" : alphabet[n & 63]!);
  }
  return out;
}


/**
 * One format: `make` writes the `variant`-th value within `bounds` (or undefined when the format cannot be that
 * long or that short), `test` says whether a string is in the format (for strings made from a pattern).
 */
interface Format {
  make(variant: number, bounds: LengthBounds): string | undefined;
  test(text: string): boolean;
}

/** A format of fixed shape: its values are what `make` writes; a length outside them is not possible. */
const fixed = (make: (variant: number) => string, test: (text: string) => boolean): Format => ({
  make: (variant, bounds) => {
    const text = make(variant);
    return within(text, bounds) ? text : undefined;
  },
  test,
});

/** A format with a part that may be any length: `make(variant, extra)` adds `extra` characters there. */
const stretchy = (make: (variant: number, extra: number) => string, test: (text: string) => boolean): Format => ({
  make: (variant, bounds) => {
    const shortest = make(variant, 0);
    if (codePoints(shortest) > bounds.max) return undefined;
    let text = make(variant, Math.max(0, bounds.min - codePoints(shortest)));
    // (A part that grows in steps, a host name's labels, may fall short once.)
    if (codePoints(text) < bounds.min) text = make(variant, bounds.min - codePoints(shortest) + (bounds.min - codePoints(text)));
    return within(text, bounds) ? text : undefined;
  },
  test,
});

/** `https://example.com`, then `…/1`, `…/2`; `extra` characters longer. */
const url = (variant: number, extra: number) =>
  variant === 0 ? (extra === 0 ? "https://example.com" : `https://example.com/${"x".repeat(extra - 1)}`) : `https://example.com/${variant}${"x".repeat(extra)}`;
const dateOf = (variant: number) => `1970-01-${two((variant % 28) + 1)}`;
const timeOf = (variant: number) => `00:${two(Math.floor(variant / 60) % 60)}:${two(variant % 60)}`;

/** The formats mock strings are made in (OpenAPI's, JSON Schema 2020-12's, and a few common ones). */
const FORMATS: Record<string, Format> = {
  "date-time": fixed((v) => `${dateOf(Math.floor(v / 3600))}T${timeOf(v)}Z`, (t) => {
    const [date, time] = t.split(/[Tt ]/);
    return time !== undefined && dateTest(date!) && timeTest(time);
  }),
  date: fixed(dateOf, dateTest),
  time: fixed((v) => `${timeOf(v)}Z`, timeTest),
  "iso-time": fixed((v) => `${timeOf(v)}Z`, timeTest),
  "iso-date-time": fixed((v) => `${dateOf(Math.floor(v / 3600))}T${timeOf(v)}Z`, (t) => FORMATS["date-time"]!.test(t)),
  duration: stretchy((v, extra) => `P${"0".repeat(extra)}${v + 1}D`, (t) => /^P(?!$)((\d+Y)?(\d+M)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$/.test(t)),
  uuid: fixed((v) => `00000000-0000-4000-8000-${hex(v, 12)}`, (t) => /^[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}$/i.test(t)),
  email: stretchy((v, extra) => `user${v === 0 ? "" : v}${"x".repeat(extra)}@example.com`, emailTest),
  "idn-email": stretchy((v, extra) => `user${v === 0 ? "" : v}${"x".repeat(extra)}@example.com`, emailTest),
  hostname: stretchy((v, extra) => `${v === 0 ? "" : `host${v}.`}${extra > 0 ? `${longLabels(extra)}.` : ""}example.com`, hostnameTest),
  "idn-hostname": stretchy((v, extra) => `${v === 0 ? "" : `host${v}.`}${extra > 0 ? `${longLabels(extra)}.` : ""}example.com`, hostnameTest),
  ipv4: fixed((v) => `192.0.2.${v % 256}`, ipv4Test),
  ipv6: fixed((v) => `2001:db8::${hex(v % 0x10000, 1)}`, (t) => /^[0-9a-f:]+$/i.test(t) && t.includes(":")),
  uri: stretchy(url, uriTest),
  url: stretchy(url, uriTest),
  iri: stretchy(url, uriTest),
  "uri-reference": stretchy(url, (t) => !/\s/.test(t)),
  "iri-reference": stretchy(url, (t) => !/\s/.test(t)),
  "uri-template": stretchy((v, extra) => `https://example.com/${v === 0 ? "" : v}${"x".repeat(extra)}{id}`, (t) => !/[\s"'<>\\^`|]/.test(t)),
  "json-pointer": stretchy((v, extra) => `/${v === 0 ? "" : v}${"x".repeat(extra)}`, (t) => /^(?:\/(?:[^~/]|~0|~1)*)*$/.test(t)),
  "relative-json-pointer": stretchy((v, extra) => `${v}/${"x".repeat(extra)}`, (t) => /^(?:0|[1-9][0-9]*)(?:#|(?:\/(?:[^~/]|~0|~1)*)*)$/.test(t)),
  regex: stretchy((v, extra) => `^mock${v === 0 ? "" : v}${"x".repeat(extra)}$`, (t) => {
    try {
      new RegExp(t, "u");
      return true;
    } catch {
      return false;
    }
  }),
  byte: {
    // Base64 of `mock` (after the variant's bytes, so that even a short cut differs): padded or cut to the bounds,
    // which base64 meets in blocks of four characters.
    make: (variant, bounds) => {
      const bytes = [...(variant === 0 ? [] : [variant & 0xff, (variant >> 8) & 0xff]), ...new TextEncoder().encode("mock")];
      while (Math.ceil(bytes.length / 3) * 4 < bounds.min) bytes.push(bytes.length % 251);
      while (bytes.length > 0 && Math.ceil(bytes.length / 3) * 4 > bounds.max) bytes.pop();
      const text = base64(bytes);
      return within(text, bounds) ? text : undefined;
    },
    test: (t) => BASE64.test(t),
  },
  base64url: stretchy((v, extra) => base64([...new TextEncoder().encode(`mock${v === 0 ? "" : v}`)]).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_") + "A".repeat(extra), (t) => BASE64URL.test(t)),
  password: stretchy((v, extra) => `password${v === 0 ? "" : v}${"x".repeat(extra)}`, () => true),
};

/** Host name labels adding up to `length` characters (each at most 63, dot-separated). */
function longLabels(length: number): string {
  const labels: string[] = [];
  let left = length;
  while (left > 0) {
    const size = Math.min(63, left);
    labels.push("a".repeat(size));
    left -= size + 1;
  }
  return labels.join(".");
}

/** Whether mock strings are made in `format` (others are free text). */
export const knownFormat = (format: string): boolean => Object.hasOwn(FORMATS, format);

/** The `variant`-th string in `format` within `bounds`, or undefined when none can be (or the format is unknown). */
export function formatValue(format: string, variant: number, bounds: LengthBounds): string | undefined {
  const definition = Object.hasOwn(FORMATS, format) ? FORMATS[format] : undefined;
  const text = definition?.make(variant, bounds);
  return text !== undefined && definition!.test(text) ? text : undefined;
}

/** Whether `text` is in `format` (true for formats not known here: nothing is checked for them). */
export function inFormat(format: string, text: string): boolean {
  return !Object.hasOwn(FORMATS, format) || FORMATS[format]!.test(text);
}

// ------------------------------------------------------------------------------------------------------------
// Strings from patterns
// ------------------------------------------------------------------------------------------------------------

type Node =
  | { kind: "set"; test: (char: string) => boolean; first?: string }
  | { kind: "text"; text: string }
  | { kind: "concat"; items: Node[] }
  | { kind: "alt"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number }
  | { kind: "group"; index: number; name?: string; node: Node }
  | { kind: "backref"; index?: number; name?: string }
  | { kind: "look"; ahead: boolean; negative: boolean; node: Node }
  | { kind: "empty" };

/** Characters tried for a class, in order: what a reader expects first, then the rest of printable ASCII, then some others. */
const POOL = [..."abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_-.", ..." !\"#$%&'()*+,/:;<=>?@[\\]^`{|}~", "é", "ü", "ß", "字", "\n", "\t"];

class PatternParser {
  private at = 0;
  private groups = 0;
  private readonly source: string;
  private readonly flags: string;

  constructor(source: string, flags: string) {
    this.source = source;
    this.flags = flags;
  }

  parse(): Node {
    const node = this.disjunction();
    if (this.at !== this.source.length) throw new SyntaxError("unbalanced )");
    return node;
  }

  private disjunction(): Node {
    const options = [this.sequence()];
    while (this.source[this.at] === "|") {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  private sequence(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== "|" && this.source[this.at] !== ")") items.push(this.quantified(this.atom()));
    return items.length === 1 ? items[0]! : { kind: "concat", items };
  }

  private atom(): Node {
    const char = this.source[this.at]!;
    if (char === "^" || char === "$") {
      this.at++;
      return { kind: "empty" };
    }
    if (char === "(") return this.group();
    if (char === "[") return this.characterClass();
    if (char === ".") {
      this.at++;
      return { kind: "set", test: (c) => c !== "\n" && c !== "\r" && c !== "\u2028" && c !== "\u2029" };
    }
    if (char === "\\") return this.escape();
    const code = this.source.codePointAt(this.at)!;
    const text = String.fromCodePoint(code);
    this.at += text.length;
    return { kind: "text", text };
  }

  private group(): Node {
    this.at++;
    let name: string | undefined;
    let capturing = true;
    if (this.source[this.at] === "?") {
      const rest = this.source.slice(this.at + 1, this.at + 3);
      const look = /^(?:=|!|<=|<!)/.exec(rest)?.[0];
      if (look !== undefined) {
        this.at += 1 + look.length;
        const node = this.disjunction();
        this.close();
        return { kind: "look", ahead: !look.startsWith("<"), negative: look.endsWith("!"), node };
      }
      if (rest.startsWith(":")) {
        this.at += 2;
        capturing = false;
      } else if (rest.startsWith("<")) {
        const end = this.source.indexOf(">", this.at);
        if (end < 0) throw new SyntaxError("group name");
        name = this.source.slice(this.at + 2, end);
        this.at = end + 1;
      } else throw new SyntaxError("modifiers");
    }
    const index = capturing ? ++this.groups : 0;
    const node = this.disjunction();
    this.close();
    return capturing ? { kind: "group", index, ...(name !== undefined ? { name } : {}), node } : node;
  }

  private close(): void {
    if (this.source[this.at] !== ")") throw new SyntaxError("unclosed group");
    this.at++;
  }

  /** A class: its source handed to the native engine, which decides membership. */
  private characterClass(): Node {
    const start = this.at;
    let i = this.at + 1;
    if (this.source[i] === "^") i++;
    if (this.source[i] === "]") i++; // a leading `]` is a literal in the legacy flavour
    for (; i < this.source.length && this.source[i] !== "]"; i++) if (this.source[i] === "\\") i++;
    if (i >= this.source.length) throw new SyntaxError("unclosed class");
    this.at = i + 1;
    const classSource = this.source.slice(start, this.at);
    const inner = classSource.slice(1, -1);
    const first = inner.startsWith("^") ? undefined : /^\\[ux]/.test(inner) ? undefined : inner[0] === "\\" ? undefined : inner[0];
    return { kind: "set", test: oneCharacter(classSource, this.flags), ...(first !== undefined && first !== "-" ? { first } : {}) };
  }

  private escape(): Node {
    const next = this.source[this.at + 1];
    if (next === undefined) throw new SyntaxError("trailing backslash");
    if (next === "b" || next === "B") {
      this.at += 2;
      return { kind: "empty" };
    }
    if (/[1-9]/.test(next)) {
      const digits = /^\d+/.exec(this.source.slice(this.at + 1))![0];
      this.at += 1 + digits.length;
      return { kind: "backref", index: Number(digits) };
    }
    if (next === "k" && this.source[this.at + 2] === "<") {
      const end = this.source.indexOf(">", this.at);
      const name = this.source.slice(this.at + 3, end);
      this.at = end + 1;
      return { kind: "backref", name };
    }
    // One character (or class) escape: `\d`, `\p{L}`, `\u00e9`, `\x41`, `\.`…, decided by the native engine.
    const match = /^\\(?:u\{[0-9A-Fa-f]+\}|u[0-9A-Fa-f]{4}|x[0-9A-Fa-f]{2}|c[A-Za-z]|[pP]\{[^}]*\}|0|[\s\S])/u.exec(this.source.slice(this.at))!;
    this.at += match[0].length;
    if (/^\\[dDwWsSpP]/.test(match[0])) return { kind: "set", test: oneCharacter(match[0], this.flags), ...(match[0] === "\\d" ? { first: "0" } : {}) };
    const literal = new RegExp(`^${match[0]}$`, this.flags);
    const text = POOL.find((c) => literal.test(c)) ?? decodeEscape(match[0]);
    if (text === undefined) return { kind: "set", test: oneCharacter(match[0], this.flags) };
    return { kind: "text", text };
  }

  private quantified(node: Node): Node {
    const rest = this.source.slice(this.at);
    let min: number;
    let max: number;
    let length = 1;
    const braces = /^\{(\d+)(?:(,)(\d*))?\}/.exec(rest);
    if (rest[0] === "*") [min, max] = [0, Infinity];
    else if (rest[0] === "+") [min, max] = [1, Infinity];
    else if (rest[0] === "?") [min, max] = [0, 1];
    else if (braces) {
      min = Number(braces[1]);
      max = braces[2] === undefined ? min : braces[3] === "" ? Infinity : Number(braces[3]);
      length = braces[0].length;
    } else return node;
    this.at += length;
    if (this.source[this.at] === "?") this.at++;
    return { kind: "repeat", node, min, max };
  }
}

/** The character an escape stands for when it is one fixed character (`\u00e9`, `\x41`, `\t`, `\.`). */
function decodeEscape(escape: string): string | undefined {
  const hexDigits = /^\\(?:u\{([0-9A-Fa-f]+)\}|u([0-9A-Fa-f]{4})|x([0-9A-Fa-f]{2}))$/.exec(escape);
  if (hexDigits) return String.fromCodePoint(parseInt(hexDigits[1] ?? hexDigits[2] ?? hexDigits[3]!, 16));
  const controls: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };
  const letter = escape.slice(1);
  return controls[letter] ?? (letter.length === 1 && !/[a-zA-Z]/.test(letter) ? letter : undefined);
}

/** Whether one character is in a class (or class escape), as the native engine reads it. */
function oneCharacter(source: string, flags: string): (char: string) => boolean {
  const regex = new RegExp(`^${source}$`, flags);
  return (char) => regex.test(char);
}

/** Longest string made from a pattern (`a{999999999}` gives up instead of filling the memory). */
export const MAX_PATTERN_TEXT = 65_536;

/** What the generator keeps while it walks a pattern: choices left by the variant, group texts, preferred characters. */
interface Walk {
  /** The variant's digits not yet spent on choices (each choice takes one, in the base of its number of options). */
  variant: number;
  /** Extra repetitions to spend, to reach a minimum length. */
  stretch: number;
  groups: Map<number | string, string>;
  /** Characters a lookahead asks for (`(?=.*\d)`), handed out first by classes that allow them. */
  wanted: string[];
  /** Characters made so far (see MAX_PATTERN_TEXT). */
  made: number;
}

function choose(walk: Walk, count: number): number {
  if (count <= 1) return 0;
  const choice = walk.variant % count;
  walk.variant = Math.floor(walk.variant / count);
  return choice;
}

function spend(walk: Walk, text: string): string {
  walk.made += text.length;
  if (walk.made > MAX_PATTERN_TEXT) throw new RangeError("the pattern asks for a longer string than mock values have");
  return text;
}

/** A string the node matches, spending the walk's variant on classes and alternatives. */
function sample(node: Node, walk: Walk): string {
  switch (node.kind) {
    case "empty":
      return "";
    case "text":
      return spend(walk, node.text);
    case "set": {
      const wanted = walk.wanted.findIndex((char) => node.test(char));
      if (wanted >= 0) return spend(walk, walk.wanted.splice(wanted, 1)[0]!);
      const members = POOL.filter((char) => char !== node.first && node.test(char));
      if (node.first !== undefined && node.test(node.first)) members.unshift(node.first);
      if (members.length === 0) throw new SyntaxError("a class no sample character is in");
      return spend(walk, members[choose(walk, Math.min(members.length, 36))]!);
    }
    case "concat":
      return node.items.map((item) => sample(item, walk)).join("");
    case "alt":
      return sample(node.options[choose(walk, node.options.length)]!, walk);
    case "group": {
      const text = sample(node.node, walk);
      walk.groups.set(node.index, text);
      if (node.name !== undefined) walk.groups.set(node.name, text);
      return text;
    }
    case "backref":
      return walk.groups.get(node.index ?? node.name!) ?? "";
    case "look": {
      // A positive lookahead's characters are handed out by the classes that follow (`(?=.*[A-Z])` before `.{8,}`).
      if (node.ahead && !node.negative) walk.wanted.push(...Array.from(sample(node.node, { ...walk, variant: 0, stretch: 0, wanted: [], made: 0 })).slice(-1));
      return "";
    }
    case "repeat": {
      let text = "";
      for (let i = 0; i < node.min; i++) text += sample(node.node, walk);
      // More than the least: to reach a minimum length (`stretch`, in characters), or to place what a lookahead wants.
      for (let added = 0; added < node.max - node.min && (walk.stretch > 0 || (node.min + added === 0 && walk.wanted.length > 0)); added++) {
        const unit = sample(node.node, walk);
        if (unit === "") break;
        text += unit;
        walk.stretch -= codePoints(unit);
      }
      return text;
    }
  }
}

const parsed = new Map<string, { node: Node; regex: RegExp } | undefined>();

/** The pattern parsed, with the native regex that judges samples (`u` flag, else the legacy flavour); undefined when neither reads it. */
function parsePattern(source: string): { node: Node; regex: RegExp } | undefined {
  if (parsed.has(source)) return parsed.get(source);
  let result: { node: Node; regex: RegExp } | undefined;
  for (const flags of ["u", ""]) {
    try {
      const regex = new RegExp(source, flags);
      result = { node: new PatternParser(source, flags).parse(), regex };
      break;
    } catch {
      // the other flavour, or none
    }
  }
  if (parsed.size > 1000) parsed.clear();
  parsed.set(source, result);
  return result;
}

/**
 * A string `pattern` matches, within `bounds`, accepted by `accept` too (a format's test), different per variant
 * where the pattern allows; undefined when none is found (lookbehind, a class of characters never tried, bounds
 * the pattern cannot meet).
 */
export function patternValue(pattern: string, variant: number, bounds: LengthBounds, accept: (text: string) => boolean = () => true): string | undefined {
  const compiled = parsePattern(pattern);
  if (!compiled) return undefined;
  const { node, regex } = compiled;
  const matches = (text: string) => within(text, bounds) && regex.test(text) && accept(text);
  for (let attempt = 0; attempt < 4; attempt++) {
    let text: string;
    try {
      text = sample(node, { variant: variant + attempt * 7, stretch: 0, groups: new Map(), wanted: [], made: 0 });
      const short = bounds.min - codePoints(text);
      // Too short: the repetitions stretch (the first ones that can), and, for an unanchored pattern, padding after.
      if (short > 0) text = sample(node, { variant: variant + attempt * 7, stretch: short, groups: new Map(), wanted: [], made: 0 });
      if (codePoints(text) < bounds.min && !pattern.endsWith("$")) text = padded(text, bounds.min);
      if (codePoints(text) < bounds.min && !pattern.startsWith("^")) text = padded("", bounds.min - codePoints(text)) + text;
    } catch {
      return undefined;
    }
    if (matches(text)) return text;
  }
  return undefined;
}
