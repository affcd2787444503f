/**
 * Schema `pattern`s without catastrophic backtracking.
 *
 * A spec's regex runs on strings the client chooses. JavaScript's engine backtracks, so a pattern such as
 * `^(a+)+$` takes seconds on 30 characters and `[a-z]+@` takes seconds on 50,000: one request would block the
 * event loop. The generator finds such patterns (super-linear ones) and lists them; the router runs those with the
 * matcher below, whose time is linear in the length of the string (a Pike VM: every thread of an NFA advances one
 * character at a time, so no position is looked at twice), and bounds the work of all of them per event-loop turn.
 * Every other pattern runs on the native engine.
 *
 * The matcher reads the structure of the regex (alternation, groups, quantifiers, `^`, `$`, `\b`, `\B`) and leaves
 * each single-character atom (a literal, `.`, `\d`, `\p{L}`, a class `[^a-z]`) to a native regex that tests one
 * character, so classes mean exactly what they mean natively. Backreferences and lookaround cannot be matched in
 * linear time: `compileLinearPattern` returns undefined for them.
 */

/** Outcome of a pattern test: `MISMATCH`, `MATCH`, or `UNCHECKED` (not decided: string too long, work budget spent). */
export type PatternResult = 0 | 1 | 2;
export const MISMATCH = 0;
export const MATCH = 1;
export const UNCHECKED = 2;

/** A compiled pattern: `test` is `RegExp.prototype.test` semantics (a match anywhere, unless anchored). */
export type PatternTest = (value: string) => PatternResult;

/**
 * Work allowed to the linear matcher per event-loop turn, shared by every request served in that turn: however
 * many strings a request carries, matching them cannot keep the loop busy longer than the budget.
 */
export class PatternBudget {
  private left = 0;
  private armed = false;
  /** Steps per turn (one step: one instruction of the matcher's program visited at one position). */
  readonly steps: number;

  constructor(steps: number) {
    this.steps = steps;
  }

  /** Takes `steps` from this turn's budget; false when it is spent. */
  take(steps: number): boolean {
    if (!this.armed) {
      this.armed = true;
      this.left = this.steps;
      // Runs once the current task and the microtasks queued before it are done: the next turn starts afresh.
      queueMicrotask(() => {
        this.armed = false;
      });
    }
    this.left -= steps;
    return this.left >= 0;
  }
}

// ------------------------------------------------------------------------------------------------------------
// Parsing: regex source → tree (only what the matcher needs; anything else makes the parse give up)
// ------------------------------------------------------------------------------------------------------------

type Node =
  | { kind: "char"; source: string }
  | { kind: "assert"; what: number }
  | { kind: "concat"; items: Node[] }
  | { kind: "alt"; options: Node[] }
  | { kind: "repeat"; node: Node; min: number; max: number };

// Assertions (plain numbers, not an enum: the runtime must stay erasable TypeScript).
const BEGIN = 0;
const END = 1;
const WORD_BOUNDARY = 2;
const NOT_WORD_BOUNDARY = 3;

/** Thrown by the parser for syntax the matcher does not run (backreferences, lookaround, …). */
class Unsupported extends Error {}

class Parser {
  private i = 0;
  private readonly source: string;
  private readonly unicode: boolean;

  constructor(source: string, unicode: boolean) {
    this.source = source;
    this.unicode = unicode;
  }

  parse(): Node {
    const node = this.disjunction();
    if (this.i !== this.source.length) throw new Unsupported("unbalanced )");
    return node;
  }

  private peek(): string {
    return this.source[this.i] ?? "";
  }

  private disjunction(): Node {
    const options = [this.alternative()];
    while (this.peek() === "|") {
      this.i++;
      options.push(this.alternative());
    }
    return options.length === 1 ? options[0]! : { kind: "alt", options };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.i < this.source.length && this.peek() !== "|" && this.peek() !== ")") {
      const term = this.term();
      items.push(term);
    }
    return items.length === 1 ? items[0]! : { kind: "concat", items };
  }

  private term(): Node {
    const c = this.peek();
    if (c === "^" || c === "$") {
      this.i++;
      return this.noQuantifier({ kind: "assert", what: c === "^" ? BEGIN : END });
    }
    if (c === "\\" && (this.source[this.i + 1] === "b" || this.source[this.i + 1] === "B")) {
      const what = this.source[this.i + 1] === "b" ? WORD_BOUNDARY : NOT_WORD_BOUNDARY;
      this.i += 2;
      return this.noQuantifier({ kind: "assert", what });
    }
    return this.quantified(this.atom());
  }

  /** A quantifier on an assertion is legal in old browsers' syntax only; not worth supporting. */
  private noQuantifier(node: Node): Node {
    if (this.quantifierAhead()) throw new Unsupported("quantified assertion");
    return node;
  }

  private quantifierAhead(): boolean {
    const c = this.peek();
    return c === "*" || c === "+" || c === "?" || (c === "{" && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.i, this.i + 24)));
  }

  private atom(): Node {
    const c = this.peek();
    if (c === "(") return this.group();
    if (c === "[") return { kind: "char", source: this.characterClass() };
    if (c === "\\") return { kind: "char", source: this.escape() };
    if (c === "*" || c === "+" || c === "?") throw new Unsupported("nothing to repeat");
    if (c === "{" && this.quantifierAhead()) throw new Unsupported("nothing to repeat");
    // A literal (in unicode mode a whole code point), or `.`.
    const code = this.unicode ? this.source.codePointAt(this.i)! : this.source.charCodeAt(this.i);
    const text = this.unicode ? String.fromCodePoint(code) : this.source[this.i]!;
    this.i += text.length;
    return { kind: "char", source: text === "." ? "." : escapeLiteral(text) };
  }

  private group(): Node {
    this.i++; // (
    if (this.peek() === "?") {
      const next = this.source[this.i + 1];
      if (next === ":") this.i += 2;
      else if (next === "<" && this.source[this.i + 2] !== "=" && this.source[this.i + 2] !== "!") {
        const close = this.source.indexOf(">", this.i);
        if (close < 0) throw new Unsupported("group name");
        this.i = close + 1; // a named group matches like any other: names only matter to backreferences
      } else throw new Unsupported("lookaround or modifiers");
    }
    const node = this.disjunction();
    if (this.peek() !== ")") throw new Unsupported("unclosed group");
    this.i++;
    return node;
  }

  /** The source of a class, `[` to the `]` that closes it (a class cannot nest without the `v` flag). */
  private characterClass(): string {
    const start = this.i;
    let j = this.i + 1;
    if (this.source[j] === "^") j++;
    for (; j < this.source.length; j++) {
      const c = this.source[j];
      if (c === "\\") j++;
      else if (c === "]") {
        this.i = j + 1;
        return this.source.slice(start, j + 1);
      }
    }
    throw new Unsupported("unclosed class");
  }

  /** An escape outside a class that stands for one character (or one class of characters). */
  private escape(): string {
    const start = this.i;
    const c = this.source[this.i + 1];
    if (c === undefined) throw new Unsupported("trailing backslash");
    if (/[1-9]/.test(c) || c === "k") throw new Unsupported("backreference");
    if (c === "u") {
      if (this.unicode && this.source[this.i + 2] === "{") {
        const close = this.source.indexOf("}", this.i);
        if (close < 0) throw new Unsupported("\\u{");
        this.i = close + 1;
        return this.source.slice(start, this.i);
      }
      if (/^[0-9A-Fa-f]{4}$/.test(this.source.slice(this.i + 2, this.i + 6))) {
        this.i += 6;
        const unit = parseInt(this.source.slice(start + 2, start + 6), 16);
        // In unicode mode a surrogate pair written as two escapes is one character.
        if (this.unicode && unit >= 0xd800 && unit <= 0xdbff && /^\\u[dD][c-fC-F][0-9A-Fa-f]{2}/.test(this.source.slice(this.i, this.i + 6))) {
          this.i += 6;
        }
        return this.source.slice(start, this.i);
      }
      if (this.unicode) throw new Unsupported("\\u");
      this.i += 2; // legacy: `\u` not followed by four hex digits is the letter u
      return "u";
    }
    if (c === "x" && /^[0-9A-Fa-f]{2}$/.test(this.source.slice(this.i + 2, this.i + 4))) {
      this.i += 4;
      return this.source.slice(start, this.i);
    }
    if (c === "c" && /[A-Za-z]/.test(this.source[this.i + 2] ?? "")) {
      this.i += 3;
      return this.source.slice(start, this.i);
    }
    if ((c === "p" || c === "P") && this.unicode) {
      const close = this.source.indexOf("}", this.i);
      if (this.source[this.i + 2] !== "{" || close < 0) throw new Unsupported("\\p");
      this.i = close + 1;
      return this.source.slice(start, this.i);
    }
    if (c === "0" && /[0-9]/.test(this.source[this.i + 2] ?? "")) throw new Unsupported("octal escape");
    // `\d`, `\w`, `\s` and their negations, control escapes, `\0`, and identity escapes (`\.`, `\/`, …): one
    // character of source after the backslash (one code point in unicode mode).
    const code = this.unicode ? this.source.codePointAt(this.i + 1)! : this.source.charCodeAt(this.i + 1);
    this.i += 1 + (code > 0xffff ? 2 : 1);
    return this.source.slice(start, this.i);
  }

  private quantified(node: Node): Node {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === "*") [min, max] = [0, Infinity];
    else if (c === "+") [min, max] = [1, Infinity];
    else if (c === "?") [min, max] = [0, 1];
    else if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.i, this.i + 24));
      if (!m) {
        // Legacy syntax: a `{` that does not start a quantifier is a literal, and so is the text after it.
        return node;
      }
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return node;
    this.i++;
    if (this.peek() === "?") this.i++; // laziness changes which match is found, not whether there is one
    if (this.quantifierAhead()) throw new Unsupported("nothing to repeat");
    return { kind: "repeat", node, min, max };
  }
}

/** A literal character as regex source (syntax characters escaped). */
function escapeLiteral(text: string): string {
  return /^[\\^$.*+?()[\]{}|/]$/.test(text) ? `\\${text}` : text;
}

// ------------------------------------------------------------------------------------------------------------
// Compilation: tree → program for the Pike VM
// ------------------------------------------------------------------------------------------------------------

// Instructions.
const CHAR = 0;
const SPLIT = 1;
const JUMP = 2;
const ASSERT = 3;
const ACCEPT = 4;

/** Programs larger than this (bounded repeats are unrolled: `x{1000}` is 1,000 instructions) are not compiled. */
const MAX_PROGRAM = 20_000;

class Program {
  readonly op: number[] = [];
  /** Char: predicate index; Split/Jump: first target; Assert: the assertion. */
  readonly x: number[] = [];
  /** Split: second target. */
  readonly y: number[] = [];
  readonly predicates: string[] = [];
  private readonly predicateIndex = new Map<string, number>();

  emit(op: number, x = 0, y = 0): number {
    if (this.op.length >= MAX_PROGRAM) throw new Unsupported("program too large");
    this.op.push(op);
    this.x.push(x);
    this.y.push(y);
    return this.op.length - 1;
  }

  compile(node: Node): void {
    switch (node.kind) {
      case "char": {
        let index = this.predicateIndex.get(node.source);
        if (index === undefined) {
          index = this.predicates.push(node.source) - 1;
          this.predicateIndex.set(node.source, index);
        }
        this.emit(CHAR, index);
        return;
      }
      case "assert":
        this.emit(ASSERT, node.what);
        return;
      case "concat":
        for (const item of node.items) this.compile(item);
        return;
      case "alt": {
        // split L1, next; L1: a; jump end; next: split L2, …
        const jumps: number[] = [];
        node.options.forEach((option, index) => {
          if (index < node.options.length - 1) {
            const split = this.emit(SPLIT);
            this.x[split] = split + 1;
            this.compile(option);
            jumps.push(this.emit(JUMP));
            this.y[split] = this.op.length;
          } else this.compile(option);
        });
        for (const jump of jumps) this.x[jump] = this.op.length;
        return;
      }
      case "repeat": {
        for (let i = 0; i < node.min; i++) this.compile(node.node);
        if (node.max === Infinity) {
          // L: split body, end; body; jump L
          const split = this.emit(SPLIT);
          this.x[split] = split + 1;
          this.compile(node.node);
          this.emit(JUMP, split);
          this.y[split] = this.op.length;
          return;
        }
        const splits: number[] = [];
        for (let i = node.min; i < node.max; i++) {
          const split = this.emit(SPLIT);
          this.x[split] = split + 1;
          splits.push(split);
          this.compile(node.node);
        }
        for (const split of splits) this.y[split] = this.op.length;
        return;
      }
    }
  }
}

/** Whether the whole pattern starts with `^` (then no thread needs starting after the first character). */
function anchoredAtStart(node: Node): boolean {
  if (node.kind === "assert") return node.what === BEGIN;
  if (node.kind === "concat") return node.items.length > 0 && anchoredAtStart(node.items[0]!);
  if (node.kind === "alt") return node.options.every(anchoredAtStart);
  return false;
}

// ------------------------------------------------------------------------------------------------------------
// Matching
// ------------------------------------------------------------------------------------------------------------

/** One character class of the pattern, decided by a native regex on single characters (ASCII answers cached). */
function characterPredicate(source: string, flags: string): (code: number) => boolean {
  const regex = new RegExp(`^(?:${source})$`, flags);
  const ascii = new Uint8Array(128); // 0 unknown, 1 no, 2 yes
  return (code) => {
    if (code < 128) {
      const known = ascii[code]!;
      if (known !== 0) return known === 2;
      const yes = regex.test(String.fromCharCode(code));
      ascii[code] = yes ? 2 : 1;
      return yes;
    }
    return regex.test(String.fromCodePoint(code));
  };
}

function isWordCharacter(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
}

/**
 * Compiles `source` (ECMAScript syntax, `u` flag when `unicode`) for the linear-time matcher, or returns
 * undefined when it uses what cannot be matched in linear time (backreferences, lookaround) or is not valid.
 * The returned test charges its work to `budget` and answers `Unchecked` when the budget is spent.
 */
export function compileLinearPattern(source: string, unicode: boolean, budget: PatternBudget): PatternTest | undefined {
  let tree: Node;
  const program = new Program();
  try {
    new RegExp(source, unicode ? "u" : ""); // only valid patterns
    tree = new Parser(source, unicode).parse();
    program.compile(tree);
    program.emit(ACCEPT);
  } catch {
    return undefined;
  }
  const flags = unicode ? "u" : "";
  const predicates = program.predicates.map((p) => characterPredicate(p, flags));
  const size = program.op.length;
  const op = Int8Array.from(program.op);
  const x = Int32Array.from(program.x);
  const y = Int32Array.from(program.y);
  const anchored = anchoredAtStart(tree);

  let current = new Int32Array(size);
  let next = new Int32Array(size);
  const seen = new Uint32Array(size);
  const stack = new Int32Array(size * 2 + 2);
  let generation = 0;

  return (value) => {
    const length = value.length;
    let currentCount = 0;
    let matched = false;
    let previous = -1; // code of the character before the position, -1 at the start
    let code = -1; // code of the character at the position, -1 at the end
    let work = 0; // instructions visited since the budget was last charged

    /** Adds the thread at `pc` and everything reachable from it without reading a character to `list`. */
    const add = (list: Int32Array, count: number, pc: number, position: number): number => {
      let top = 0;
      stack[top++] = pc;
      while (top > 0) {
        const at = stack[--top]!;
        if (seen[at] === generation) continue;
        seen[at] = generation;
        work++;
        switch (op[at]) {
          case CHAR:
            list[count++] = at;
            break;
          case JUMP:
            stack[top++] = x[at]!;
            break;
          case SPLIT:
            stack[top++] = y[at]!;
            stack[top++] = x[at]!;
            break;
          case ASSERT: {
            const what = x[at]!;
            let holds: boolean;
            if (what === BEGIN) holds = position === 0;
            else if (what === END) holds = position === length;
            else {
              const boundary = (previous >= 0 && isWordCharacter(previous)) !== (code >= 0 && isWordCharacter(code));
              holds = what === WORD_BOUNDARY ? boundary : !boundary;
            }
            if (holds) stack[top++] = at + 1;
            break;
          }
          case ACCEPT:
            matched = true;
            break;
        }
      }
      return count;
    };

    generation++;
    code = length > 0 ? (unicode ? value.codePointAt(0)! : value.charCodeAt(0)) : -1;
    currentCount = add(current, 0, 0, 0);
    if (matched) return MATCH;
    if (!budget.take(work)) return UNCHECKED;
    work = 0;
    let position = 0;
    while (position < length) {
      const width = unicode && code > 0xffff ? 2 : 1;
      const following = position + width;
      const read = code;
      previous = code;
      code = following < length ? (unicode ? value.codePointAt(following)! : value.charCodeAt(following)) : -1;
      generation++;
      let nextCount = 0;
      // A character outside ASCII is tested by a native regex call (not a table lookup): charge it as more work.
      if (read >= 128) work += currentCount * 4;
      for (let t = 0; t < currentCount; t++) {
        const pc = current[t]!;
        if (predicates[x[pc]!]!(read)) nextCount = add(next, nextCount, pc + 1, following);
      }
      if (!anchored) nextCount = add(next, nextCount, 0, following);
      if (matched) return MATCH;
      if (nextCount === 0 && anchored) return MISMATCH;
      if (!budget.take(work + currentCount)) return UNCHECKED;
      work = 0;
      [current, next] = [next, current];
      currentCount = nextCount;
      position = following;
    }
    return MISMATCH;
  };
}
