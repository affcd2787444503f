/**
 * The layout of a generated module's data tables (the client's operations, the router's routes and schemas, the
 * webhook spec, the validators' values…): JSON one entry per line, so that a spec edit changes the lines of the
 * entries it changes, and a pull request shows them. printer.ts writes the lines as one string literal, continued
 * from line to line (`\` at each line's end), read with `JSON.parse`: one token for a type checker, scanned at load
 * as fast as the same JSON on one line (a template literal, `JSON.parse(String.raw`…`)`, took 30% longer on Stripe's
 * router: docs/performance.md).
 */

/** A data table: its value and the depth of its entries (1: the members of the value are the entries). */
export interface DataTable {
  value: unknown;
  /**
   * How deep the entries are: every object or array above this depth is broken one member per line (a table's
   * members, `components.schemas`' members at 3), whatever their size.
   */
  entriesAt: number;
}

/**
 * The widest line of a table in the generated file, its indentation and its continuation `\` included: a longer entry
 * is broken one member per line, and so on down, so that only a single long string (a description, an example from
 * the spec) makes a longer line.
 */
export const DATA_LINE_WIDTH = 400;

const INDENT = "  ";

/**
 * The table's JSON text, one entry per line, indented two spaces per depth (no line breaks inside a line). `width`
 * measures a text as the generated file writes it (its escapes in a string literal).
 */
export function dataTableLines(table: DataTable, width: (text: string) => number = (text) => text.length): string[] {
  const lines: string[] = [];
  layOut(table.value, 0, "", "", table.entriesAt, width, lines);
  return lines;
}

function layOut(value: unknown, depth: number, key: string, comma: string, entriesAt: number, width: (text: string) => number, lines: string[]): void {
  const indent = INDENT.repeat(depth);
  if (value === null || typeof value !== "object" || typeof (value as { toJSON?: unknown }).toJSON === "function") {
    lines.push(`${indent}${key}${JSON.stringify(value) ?? "null"}${comma}`);
    return;
  }
  const members: [string, unknown][] = Array.isArray(value)
    ? value.map((member) => ["", member === undefined || typeof member === "function" ? null : member])
    : Object.entries(value).flatMap(([name, member]): [string, unknown][] => (member === undefined || typeof member === "function" ? [] : [[`${JSON.stringify(name)}:`, member]]));
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  if (members.length === 0) {
    lines.push(`${indent}${key}${open}${close}${comma}`);
    return;
  }
  if (depth >= entriesAt) {
    const flat = JSON.stringify(value);
    if (indent.length + width(key) + width(flat) + comma.length + "\\".length <= DATA_LINE_WIDTH) {
      lines.push(`${indent}${key}${flat}${comma}`);
      return;
    }
  }
  lines.push(`${indent}${key}${open}`);
  members.forEach(([name, member], i) => layOut(member, depth + 1, name, i < members.length - 1 ? "," : "", entriesAt, width, lines));
  lines.push(`${indent}${close}${comma}`);
}
