/**
 * Edits a package.json as text, so everything not edited stays byte for byte what it was: indentation (spaces or
 * tabs), key order, line endings, one-line objects, the trailing newline. Rewriting the file through
 * JSON.stringify (what `npm pkg set` does) would re-indent it and expand every one-line array.
 */

interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

interface ObjectSpan {
  start: number; // the `{`
  end: number; // after the `}`
  members: Member[];
}

class Scanner {
  constructor(private readonly text: string) {}

  ws(pos: number): number {
    while (pos < this.text.length && " \t\r\n".includes(this.text[pos]!)) pos++;
    return pos;
  }

  string(pos: number): number {
    for (let i = pos + 1; i < this.text.length; i++) {
      if (this.text[i] === "\\") i++;
      else if (this.text[i] === '"') return i + 1;
    }
    throw new Error("unterminated string");
  }

  /** Skips one JSON value starting at `pos` (no leading whitespace); returns the position after it. */
  value(pos: number): number {
    const c = this.text[pos];
    if (c === '"') return this.string(pos);
    if (c === "{") return this.object(pos).end;
    if (c === "[") {
      let p = this.ws(pos + 1);
      if (this.text[p] === "]") return p + 1;
      for (;;) {
        p = this.ws(this.value(p));
        if (this.text[p] === "]") return p + 1;
        p = this.ws(p + 1); // the comma
      }
    }
    const literal = /^(?:true|false|null|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(this.text.slice(pos, pos + 400));
    if (!literal) throw new Error(`unexpected character at ${pos}`);
    return pos + literal[0].length;
  }

  object(pos: number): ObjectSpan {
    const members: Member[] = [];
    let p = this.ws(pos + 1);
    if (this.text[p] === "}") return { start: pos, end: p + 1, members };
    for (;;) {
      const keyStart = p;
      const keyEnd = this.string(p);
      const valueStart = this.ws(this.ws(keyEnd) + 1); // after the colon
      const valueEnd = this.value(valueStart);
      members.push({ key: JSON.parse(this.text.slice(keyStart, keyEnd)) as string, keyStart, keyEnd, valueStart, valueEnd });
      p = this.ws(valueEnd);
      if (this.text[p] === "}") return { start: pos, end: p + 1, members };
      p = this.ws(p + 1); // the comma
    }
  }
}

export interface ScriptsEdit {
  /** The new file text (the same string when nothing changed). */
  text: string;
  /** Scripts added. */
  added: string[];
  /** Scripts that were there with the same command. */
  present: string[];
  /** Scripts that were there with a different command and were replaced (`force`). */
  replaced: { name: string; previous: string }[];
  /** Scripts that were there with a different command and were left alone. */
  kept: { name: string; existing: string }[];
}

export class JsonShapeError extends Error {}

/**
 * Adds `scripts` to the package.json `text`, keeping its formatting. A script that exists with another command is
 * kept (reported in `kept`) unless `force`. Throws a SyntaxError for invalid JSON and a JsonShapeError when the
 * top level or `scripts` is not an object.
 */
export function addScripts(text: string, scripts: Record<string, string>, options: { force?: boolean } = {}): ScriptsEdit {
  const bom = text.startsWith("\uFEFF") ? "\uFEFF" : "";
  const body = text.slice(bom.length);
  const parsed = JSON.parse(body) as unknown;
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) throw new JsonShapeError("the top level must be an object");
  const pkg = parsed as Record<string, unknown>;
  if (pkg.scripts !== undefined && (pkg.scripts === null || typeof pkg.scripts !== "object" || Array.isArray(pkg.scripts))) {
    throw new JsonShapeError("`scripts` must be an object");
  }
  const existing = (pkg.scripts ?? {}) as Record<string, unknown>;
  const result: ScriptsEdit = { text, added: [], present: [], replaced: [], kept: [] };
  const toAdd: [string, string][] = [];
  const toReplace: [string, string][] = [];
  for (const [name, command] of Object.entries(scripts)) {
    if (!(name in existing)) {
      toAdd.push([name, command]);
      result.added.push(name);
    } else if (existing[name] === command) {
      result.present.push(name);
    } else if (options.force) {
      toReplace.push([name, command]);
      result.replaced.push({ name, previous: String(existing[name]) });
    } else {
      result.kept.push({ name, existing: String(existing[name]) });
    }
  }
  if (toAdd.length === 0 && toReplace.length === 0) return result;

  const scan = new Scanner(body);
  const root = scan.object(scan.ws(0));
  const eol = body.includes("\r\n") ? "\r\n" : "\n";
  const multiline = body.slice(root.start, root.end).includes("\n");
  const first = root.members[0];
  // The file's own style: its indent unit (the first indented key), the indent of the top-level keys and what
  // separates a key from its value.
  const unit = /\n([ \t]+)"/.exec(body)?.[1] ?? "  ";
  const rootIndent = (root.members.length > 0 && indentBefore(body, root.members.at(-1)!.keyStart)) || unit;
  const colon = first ? body.slice(first.keyEnd, first.valueStart) : ": ";
  const entry = ([name, command]: [string, string]) => `${JSON.stringify(name)}${colon}${JSON.stringify(command)}`;

  const edits: { start: number; end: number; text: string }[] = [];
  const scriptsMember = root.members.filter((m) => m.key === "scripts").at(-1);
  if (scriptsMember) {
    const scriptsSpan = scan.object(scriptsMember.valueStart);
    for (const [name, command] of toReplace) {
      const member = scriptsSpan.members.filter((m) => m.key === name).at(-1)!;
      edits.push({ start: member.valueStart, end: member.valueEnd, text: JSON.stringify(command) });
    }
    const last = scriptsSpan.members.at(-1);
    if (last && toAdd.length > 0) {
      const lead = body.slice(scriptsSpan.start + 1, last.keyStart);
      const separator = lead.includes("\n") ? `,${eol}${indentBefore(body, last.keyStart) || rootIndent + unit}` : ", ";
      edits.push({ start: last.valueEnd, end: last.valueEnd, text: toAdd.map((e) => separator + entry(e)).join("") });
    } else if (toAdd.length > 0) {
      const outer = multiline ? indentBefore(body, scriptsMember.keyStart) || rootIndent : "";
      edits.push({ start: scriptsSpan.start, end: scriptsSpan.end, text: objectText(toAdd.map(entry), outer, unit, eol, multiline) });
    }
  } else {
    const last = root.members.at(-1);
    const member = `"scripts"${colon}${objectText(toAdd.map(entry), rootIndent, unit, eol, multiline || !last)}`;
    if (last) {
      edits.push({ start: last.valueEnd, end: last.valueEnd, text: multiline ? `,${eol}${rootIndent}${member}` : `, ${member}` });
    } else {
      edits.push({ start: root.start, end: root.end, text: `{${eol}${rootIndent}${member}${eol}}` });
    }
  }
  let edited = body;
  for (const edit of edits.sort((a, b) => b.start - a.start)) edited = edited.slice(0, edit.start) + edit.text + edited.slice(edit.end);

  // The edit must mean exactly "these scripts added or replaced, nothing else": checked, not assumed.
  const expected = structuredClone(pkg);
  expected.scripts = { ...existing, ...Object.fromEntries([...toReplace, ...toAdd]) };
  if (JSON.stringify(JSON.parse(edited)) !== JSON.stringify(expected)) {
    throw new Error("editing package.json produced a different document than intended");
  }
  return { ...result, text: bom + edited };
}

/** The whitespace between the start of the line and `pos`. */
function indentBefore(text: string, pos: number): string {
  const lineStart = text.lastIndexOf("\n", pos - 1) + 1;
  const indent = text.slice(lineStart, pos);
  return /^[ \t]*$/.test(indent) ? indent : "";
}

function objectText(entries: string[], outer: string, unit: string, eol: string, multiline: boolean): string {
  if (!multiline) return `{${entries.join(", ")}}`;
  return `{${eol}${entries.map((e) => outer + unit + e).join(`,${eol}`)}${eol}${outer}}`;
}
