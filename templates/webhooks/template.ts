import type { PayloadVariableSpec } from "./types.js";

/**
 * Payload templates (`x-payload-template`): JSON text with `${variable}` placeholders.
 *
 * Substitution rule (decided by where the placeholder sits in the template's JSON text):
 * - inside a JSON string literal (`"Hello ${project_name}"`): the value's text is inserted
 *   JSON-escaped (quotes, backslashes, control characters, U+2028/U+2029), so the string stays valid.
 *   Strings are inserted as-is, numbers/booleans as `String(v)`, objects/arrays as their JSON text,
 *   null/missing as nothing.
 * - outside a string (`{"version": ${artifact_version}}`): the value is inserted as a JSON value:
 *   strings as JSON strings (quoted), numbers/booleans/null/objects as JSON, missing as `""`.
 *
 * Variables (with `x-payload-variables` declared):
 * - `${name}` a declared `value` variable; empty when it has `events` and `variables.event_type`
 *   is not one of them (e.g. `${alias}` outside alias events); missing renders empty.
 * - `${map.KEY}` a top-level key of a declared `map` variable (`${artifact_metadata.KEY}`);
 *   a deeper path (`${artifact_metadata.a.b}`) is an unknown variable.
 * - `${ACCESS_TOKEN}` (a declared `secret`) and, when a `named-secret` variable is declared,
 *   `${ANY_SECRET}` and `$ANY_SECRET` read `secrets[NAME]`. A bare `$word` that is not a
 *   known secret is left as literal text.
 * - anything else is unknown: it renders empty and `checkPayloadTemplate` reports it.
 * Without declared variables, `${name}` reads `variables[name]` (else `secrets[name]`),
 * `${name.KEY}` a top-level key of `variables[name]`, `$NAME` `secrets[NAME]` when present.
 */

/** A problem found by `checkPayloadTemplate`. */
export interface TemplateProblem {
  readonly kind: "unknown_variable" | "invalid_json";
  readonly message: string;
  /** 0-based index in the template. */
  readonly offset: number;
  /** Length of the offending placeholder (0 for JSON errors). */
  readonly length: number;
  /** 1-based line and column of `offset`. */
  readonly line: number;
  readonly column: number;
  /** The placeholder's name, for `unknown_variable`. */
  readonly variable?: string;
}

export interface TemplateCheckResult {
  readonly ok: boolean;
  readonly problems: readonly TemplateProblem[];
}

export interface CheckTemplateOptions {
  /**
   * Names of the secrets the webhook can access. When given, `${NAME}` must be one of them
   * (or a declared variable). When absent, any UPPER_SNAKE_CASE name is accepted as a secret.
   */
  readonly secretNames?: readonly string[];
}

/** The `variables` argument of `renderPayloadTemplate`. */
export type PayloadTemplateVariables<Vars> = Partial<Vars> & { readonly event_type?: string };

export interface CompiledVariables {
  /** False when the spec has no `x-payload-variables`: everything is looked up loosely. */
  readonly declared: boolean;
  readonly byName: ReadonlyMap<string, PayloadVariableSpec>;
  readonly namedSecrets: boolean;
}

export function compileVariables(variables: readonly PayloadVariableSpec[] | undefined): CompiledVariables {
  const byName = new Map<string, PayloadVariableSpec>();
  for (const v of variables ?? []) byName.set(v.name, v);
  return {
    declared: variables !== undefined,
    byName,
    namedSecrets: [...byName.values()].some((v) => v.kind === "named-secret"),
  };
}

interface Placeholder {
  readonly start: number;
  readonly end: number;
  readonly name: string;
  /** `$NAME` rather than `${NAME}`. */
  readonly bare: boolean;
  readonly inString: boolean;
}

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;
const UPPER_SECRET = /^[A-Z_][A-Z0-9_]*$/;

/** Finds placeholders while tracking whether each one sits inside a JSON string literal. */
function scan(template: string): { placeholders: Placeholder[]; unterminated: number[] } {
  const placeholders: Placeholder[] = [];
  const unterminated: number[] = [];
  let inString = false;
  for (let i = 0; i < template.length; ) {
    const c = template[i];
    if (c === "$") {
      if (template[i + 1] === "{") {
        const close = template.indexOf("}", i + 2);
        // A quote, brace, backslash or line break before the "}" means the "}" belongs to
        // something else (`"${name", ...}`): the placeholder is unterminated.
        if (close !== -1 && !/["{\\\r\n]/.test(template.slice(i + 2, close))) {
          placeholders.push({ start: i, end: close + 1, name: template.slice(i + 2, close), bare: false, inString });
          i = close + 1;
          continue;
        }
        unterminated.push(i);
      } else {
        IDENT.lastIndex = i + 1;
        const m = IDENT.exec(template);
        if (m) {
          placeholders.push({ start: i, end: i + 1 + m[0].length, name: m[0], bare: true, inString });
          i += 1 + m[0].length;
          continue;
        }
      }
      i++;
      continue;
    }
    if (inString) {
      if (c === "\\") {
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    }
    i++;
  }
  return { placeholders, unterminated };
}

function hasOwn(obj: unknown, key: string): boolean {
  return typeof obj === "object" && obj !== null && Object.prototype.hasOwnProperty.call(obj, key);
}

function get(obj: unknown, key: string): unknown {
  return hasOwn(obj, key) ? (obj as Record<string, unknown>)[key] : undefined;
}

/** JSON string-literal content for `text` (no surrounding quotes). */
function escapeForJsonString(text: string): string {
  // JSON.stringify escapes quotes, backslashes, control chars and lone surrogates;
  // U+2028/2029 are valid JSON but break JavaScript string literals and some parsers.
  return JSON.stringify(text).slice(1, -1).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

function insert(value: unknown, inString: boolean): string {
  if (inString) {
    let text: string;
    if (value === undefined || value === null) text = "";
    else if (typeof value === "string") text = value;
    else if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") text = String(value);
    else text = JSON.stringify(value) ?? "";
    return escapeForJsonString(text);
  }
  if (value === undefined) return '""';
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return '"' + escapeForJsonString(value) + '"';
  const json = JSON.stringify(value);
  return json === undefined ? '""' : json.replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029");
}

type Resolution = { readonly literal: true } | { readonly literal: false; readonly value: unknown; readonly problem?: string };

const LITERAL: Resolution = { literal: true };
const SAMPLE = "x";

interface RenderContext {
  readonly check: boolean;
  readonly variables: Readonly<Record<string, unknown>>;
  readonly secrets: Readonly<Record<string, unknown>>;
  readonly secretNames: ReadonlySet<string> | undefined;
}

function restricted(spec: PayloadVariableSpec, ctx: RenderContext): boolean {
  const eventType = ctx.variables["event_type"];
  return !ctx.check && spec.events !== undefined && typeof eventType === "string" && !spec.events.includes(eventType);
}

function resolve(p: Placeholder, vars: CompiledVariables, ctx: RenderContext): Resolution {
  const secret = (name: string): Resolution => ({ literal: false, value: ctx.check ? SAMPLE : get(ctx.secrets, name) ?? "" });
  const unknownVariable = (problem: string): Resolution => ({ literal: false, value: undefined, problem });

  if (!vars.declared) {
    // Loose mode: a bare `$NAME` is a secret only when a secret by that name exists.
    if (p.bare) {
      if (ctx.check) return ctx.secretNames?.has(p.name) ? { literal: false, value: SAMPLE } : LITERAL;
      return hasOwn(ctx.secrets, p.name) ? { literal: false, value: get(ctx.secrets, p.name) } : LITERAL;
    }
    if (ctx.check) return { literal: false, value: SAMPLE };
    if (hasOwn(ctx.variables, p.name)) return { literal: false, value: get(ctx.variables, p.name) };
    const dot = p.name.indexOf(".");
    if (dot > 0 && !p.name.slice(dot + 1).includes(".")) {
      return { literal: false, value: get(get(ctx.variables, p.name.slice(0, dot)), p.name.slice(dot + 1)) };
    }
    return { literal: false, value: get(ctx.secrets, p.name) };
  }

  const declared = vars.byName.get(p.name);
  const isSecretName = (name: string): boolean => {
    if (!vars.namedSecrets) return false;
    if (ctx.check) return ctx.secretNames ? ctx.secretNames.has(name) : UPPER_SECRET.test(name);
    return true;
  };

  if (p.bare) {
    if (declared && (declared.kind === "secret" || declared.kind === "named-secret")) return secret(p.name);
    if (ctx.check ? isSecretName(p.name) : vars.namedSecrets && hasOwn(ctx.secrets, p.name)) return secret(p.name);
    return LITERAL; // "$5" or "$HOME" in text is not a placeholder
  }

  if (declared) {
    switch (declared.kind ?? "value") {
      case "secret":
      case "named-secret":
        return secret(p.name);
      case "map":
        return { literal: false, value: ctx.check ? {} : restricted(declared, ctx) ? "" : get(ctx.variables, p.name) };
      default:
        return { literal: false, value: ctx.check ? SAMPLE : restricted(declared, ctx) ? "" : get(ctx.variables, p.name) };
    }
  }

  const dot = p.name.indexOf(".");
  if (dot > 0) {
    const head = vars.byName.get(p.name.slice(0, dot));
    const key = p.name.slice(dot + 1);
    if (head?.kind === "map") {
      if (key === "" || key.includes(".")) {
        return unknownVariable(`\${${p.name}}: only top-level keys of ${head.name} can be used (\${${head.name}.KEY})`);
      }
      if (ctx.check) return { literal: false, value: SAMPLE };
      return { literal: false, value: restricted(head, ctx) ? "" : get(get(ctx.variables, head.name), key) };
    }
  }

  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.name) && isSecretName(p.name)) return secret(p.name);
  return unknownVariable(`unknown variable \${${p.name}}`);
}

interface Segment {
  readonly outStart: number;
  readonly tplStart: number;
  readonly placeholder: boolean;
}

function renderWith(
  template: string,
  vars: CompiledVariables,
  ctx: RenderContext,
  onProblem?: (p: Placeholder, message: string) => void,
): { output: string; segments: Segment[]; unterminated: number[] } {
  const { placeholders, unterminated } = scan(template);
  const segments: Segment[] = [];
  let output = "";
  let last = 0;
  for (const p of placeholders) {
    segments.push({ outStart: output.length, tplStart: last, placeholder: false });
    output += template.slice(last, p.start);
    const r = resolve(p, vars, ctx);
    segments.push({ outStart: output.length, tplStart: p.start, placeholder: !r.literal });
    if (r.literal) {
      output += template.slice(p.start, p.end);
    } else {
      if (r.problem !== undefined) onProblem?.(p, r.problem);
      output += insert(r.value, p.inString);
    }
    last = p.end;
  }
  segments.push({ outStart: output.length, tplStart: last, placeholder: false });
  output += template.slice(last);
  return { output, segments, unterminated };
}

/** Renders a payload template; see the substitution rules at the top of this file. */
export function renderTemplate(
  vars: CompiledVariables,
  template: string,
  variables?: Readonly<Record<string, unknown>>,
  secrets?: Readonly<Record<string, string>>,
): string {
  return renderWith(template, vars, { check: false, variables: variables ?? {}, secrets: secrets ?? {}, secretNames: undefined })
    .output;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

/**
 * Reports unknown variables and templates that do not render to valid JSON
 * (rendered with sample values, so the JSON check does not depend on real data).
 */
export function checkTemplate(vars: CompiledVariables, template: string, options?: CheckTemplateOptions): TemplateCheckResult {
  const problems: TemplateProblem[] = [];
  const at = (offset: number) => lineColumn(template, offset);

  const ctx: RenderContext = {
    check: true,
    variables: {},
    secrets: {},
    secretNames: options?.secretNames ? new Set(options.secretNames) : undefined,
  };
  const { output, segments, unterminated } = renderWith(template, vars, ctx, (p, message) => {
    problems.push({ kind: "unknown_variable", message, offset: p.start, length: p.end - p.start, ...at(p.start), variable: p.name });
  });

  for (const start of unterminated) {
    const text = /^\$\{[^"{}\\\s]*/.exec(template.slice(start))![0];
    problems.push({
      kind: "unknown_variable",
      message: `unterminated placeholder ${text} (missing "}")`,
      offset: start,
      length: text.length,
      ...at(start),
      variable: text.slice(2),
    });
  }

  let parsed = true;
  try {
    JSON.parse(output);
  } catch {
    parsed = false;
  }
  if (!parsed) {
    const error = findJsonError(output) ?? { offset: 0, message: "not valid JSON" };
    const offset = toTemplateOffset(error.offset, segments, template.length);
    problems.push({ kind: "invalid_json", message: `invalid JSON: ${error.message}`, offset, length: 0, ...at(offset) });
  }
  problems.sort((a, b) => a.offset - b.offset);
  return { ok: problems.length === 0, problems };
}

function toTemplateOffset(outOffset: number, segments: readonly Segment[], templateLength: number): number {
  // The last segment starting at or before the offset holds it (zero-length segments lose ties).
  for (let i = segments.length - 1; i >= 0; i--) {
    const s = segments[i]!;
    if (s.outStart <= outOffset) {
      return s.placeholder ? s.tplStart : Math.min(s.tplStart + (outOffset - s.outStart), templateLength);
    }
  }
  return Math.min(outOffset, templateLength);
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** Locates the first RFC 8259 syntax error (JSON.parse decides validity; this finds where). */
function findJsonError(s: string): { offset: number; message: string } | null {
  let i = 0;
  const stack: string[] = [];
  const describe = () => (i >= s.length ? "unexpected end of input" : `unexpected character ${JSON.stringify(s[i])}`);
  const ws = () => {
    while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === "\n" || s[i] === "\r")) i++;
  };
  const string = (): string | null => {
    if (s[i] !== '"') return `expected a string, ${describe()}`;
    i++;
    for (;;) {
      if (i >= s.length) return "unterminated string";
      const c = s.charCodeAt(i);
      if (c === 34) {
        i++;
        return null;
      }
      if (c < 0x20) return "control character in string (escape it as \\n, \\t or \\u00XX)";
      if (c === 92) {
        const e = s[i + 1];
        if (e === "u") {
          if (!HEX4.test(s.slice(i + 2, i + 6))) return "invalid \\u escape";
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          return "invalid escape in string";
        }
        continue;
      }
      i++;
    }
  };
  /** `"key"` `:` of an object member. */
  const member = (): string | null => {
    const err = string();
    if (err) return err;
    ws();
    if (s[i] !== ":") return `expected ":", ${describe()}`;
    i++;
    ws();
    return null;
  };
  const value = (): string | null => {
    const c = s[i];
    if (c === '"') return string();
    if (c === "{" || c === "[") return null; // handled by the caller's loop
    for (const word of ["true", "false", "null"]) {
      if (s.startsWith(word, i)) {
        i += word.length;
        return null;
      }
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(s);
    if (m && m[0] !== "-") {
      i += m[0].length;
      return null;
    }
    return `expected a value, ${describe()}`;
  };

  ws();
  for (;;) {
    // Expecting a value at i.
    const c = s[i];
    if (c === "{" || c === "[") {
      i++;
      ws();
      if (s[i] === (c === "{" ? "}" : "]")) {
        i++;
      } else {
        stack.push(c);
        if (c === "{") {
          const err = member();
          if (err) return { offset: i, message: err };
        }
        continue;
      }
    } else {
      const err = value();
      if (err) return { offset: i, message: err };
    }
    // After a value: close containers or move to the next member.
    for (;;) {
      ws();
      const top = stack[stack.length - 1];
      if (top === undefined) return i < s.length ? { offset: i, message: `unexpected content after the JSON value` } : null;
      const close = top === "{" ? "}" : "]";
      if (s[i] === close) {
        stack.pop();
        i++;
        continue;
      }
      if (s[i] !== ",") return { offset: i, message: `expected "," or "${close}", ${describe()}` };
      i++;
      ws();
      if (top === "{") {
        const err = member();
        if (err) return { offset: i, message: err };
      }
      break;
    }
  }
}
