/** Where a JSON text fails to parse, as `file:line:column`: the spec, the config, package.json. */
import { UserError, formatPosition } from "../errors.js";

/**
 * A JSON.parse failure of `text` (the file `displayPath`) as one user error at its `file:line:column`, V8's message
 * without its character position: `${what}: Unexpected token …`.
 */
export function invalidJson(error: unknown, text: string, displayPath: string, what: string, hint?: string): UserError {
  const { line, column } = lineColumn(text, jsonErrorOffset(error, text));
  return new UserError(`${what}: ${cleanJsonMessage(error)}`, { location: formatPosition(displayPath, line, column), ...(hint ? { hint } : {}) });
}

/**
 * The offset of the error: V8's `at position N` when its message has one (Node 20 leaves it out of some, such as
 * `Unexpected token '}', "…" is not valid JSON`), else where a scan of the JSON grammar stops.
 */
function jsonErrorOffset(error: unknown, text: string): number {
  const message = error instanceof Error ? error.message : "";
  const match = /at position (\d+)/.exec(message);
  return match ? Number(match[1]) : firstJsonError(text);
}

function cleanJsonMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s*in JSON at position \d+.*$/s, "").replace(/^JSON\.parse: /, "");
}

/** 1-based line and column of a UTF-16 offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

/** The offset of the first character that is not valid JSON (RFC 8259) where it stands; the text's length if none. */
export function firstJsonError(text: string): number {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at]!)) at++;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) fail();
      at++;
    }
  };
  const string = () => {
    at++; // "
    for (;;) {
      const char = text[at];
      if (char === undefined || char < " ") fail();
      if (char === '"') return void at++;
      if (char === "\\") {
        at++;
        if (text[at] === "u") {
          at++;
          for (let i = 0; i < 4; i++, at++) if (!/[0-9a-fA-F]/.test(text[at] ?? "")) fail();
          continue;
        }
        if (!'"\\/bfnrt'.includes(text[at] ?? "x")) fail();
      }
      at++;
    }
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match || match[0] === "-") fail();
    at += match![0].length;
  };
  const value = (depth: number): void => {
    // Deeper than any real document: the scan stops here rather than exhaust the stack.
    if (depth > 1000) fail();
    space();
    const char = text[at];
    if (char === "{") {
      at++;
      space();
      if (text[at] === "}") return void at++;
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ":") fail();
        at++;
        value(depth + 1);
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "}") return void at++;
        else fail();
      }
    }
    if (char === "[") {
      at++;
      space();
      if (text[at] === "]") return void at++;
      for (;;) {
        value(depth + 1);
        space();
        if (text[at] === ",") at++;
        else if (text[at] === "]") return void at++;
        else fail();
      }
    }
    if (char === '"') return string();
    if (char === "t") return literal("true");
    if (char === "f") return literal("false");
    if (char === "n") return literal("null");
    if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) return number();
    fail();
  };
  try {
    value(0);
    space();
    if (at < text.length) fail();
    return text.length;
  } catch (offset) {
    if (typeof offset !== "number") throw offset;
    return offset;
  }
}
