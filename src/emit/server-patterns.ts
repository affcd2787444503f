import { createRequire } from "node:module";
import { DATA_KEYWORDS, NAME_MAPS } from "../openapi/vocabulary.js";

type RedosDetector = typeof import("redos-detector");
let redosDetector: RedosDetector | undefined;
/**
 * redos-detector (a 230 kB CommonJS file), required when a pattern is first analysed: a spec without quantified
 * patterns never loads it, and `require` skips the export scan an ESM `import` of CommonJS makes (~15 ms).
 */
const isSafePattern: RedosDetector["isSafePattern"] = (...args) => (redosDetector ??= createRequire(import.meta.url)("redos-detector") as RedosDetector).isSafePattern(...args);

/**
 * Regexes in the spec that the generated router runs on client input (`pattern`, `patternProperties` keys) and
 * that backtrack catastrophically on JavaScript's engine (`^(a+)+$` takes seconds on 30 characters). The router
 * matches the ones listed here with its linear-time matcher (templates/server/pattern.ts) instead, and the user is
 * warned where they are.
 *
 * The analysis is redos-detector's (it explores the backtracking paths of the pattern, including the retries at
 * every start position of an unanchored one): deterministic, bounded by its step limit, never by the clock, so the
 * list — and server.ts — is the same on every machine. A pattern it cannot decide within the limit counts as
 * super-linear (the linear matcher is correct for it anyway; it only costs budget).
 */

/**
 * redos-detector's exploration limit. Its default (20,000) lets a pattern such as `^(b|bb)+$` take 14 s to decide;
 * 2,000 decides every pattern of the public corpus the same way in under half a second each.
 */
const ANALYSIS_STEPS = 2000;

/** A pattern found super-linear, where it first appears, and how many places use it. */
export interface SuperLinearPattern {
  pattern: string;
  /** JSON pointer (segments) of its first occurrence in the bundled document. */
  pointer: string[];
  occurrences: number;
}

/** A warning an emitter raises, located by JSON pointer in the bundled document. */
export interface EmitterWarning {
  message: string;
  pointer: string[];
  hint?: string;
}


/** Why a pattern is listed: it backtracks catastrophically, or the analysis could not show that it does not. */
type Verdict = "linear" | "super-linear" | "undecided";
const verdicts = new Map<string, Verdict>();

/** What redos-detector said of a pattern, as a number (it crosses threads in a shared Int32Array). */
export const Outcome = {
  Safe: 1,
  HitMaxSteps: 2,
  Unsafe: 3,
  /** It threw: syntax the analyser does not know. */
  Threw: 4,
} as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** A pattern redos-detector has to look at: its source and whether it compiles with the `u` flag. */
export interface PatternToAnalyse {
  pattern: string;
  unicode: boolean;
}

/**
 * The analysis of patterns handed to another thread (src/pattern-thread.ts), whose outcomes are asked for when
 * first needed: it blocks until they are there, then records them. Undefined once taken (or when nothing was handed over).
 */
let pending: (() => ReadonlyMap<string, Outcome>) | undefined;

/** Hands the analysis to `outcomes`, which the first verdict not yet known takes (and waits for). */
export function analysedElsewhere(outcomes: () => ReadonlyMap<string, Outcome>): void {
  pending = outcomes;
}

/** The analysis redos-detector makes of a pattern, in this thread or another (the same call, same step limit). */
export function analyse({ pattern, unicode }: PatternToAnalyse, detector: Pick<RedosDetector, "isSafePattern"> = { isSafePattern }): Outcome {
  try {
    const result = detector.isSafePattern(pattern, { unicode, maxSteps: ANALYSIS_STEPS });
    return result.safe ? Outcome.Safe : result.error === "hitMaxSteps" ? Outcome.HitMaxSteps : Outcome.Unsafe;
  } catch {
    return Outcome.Threw;
  }
}

/** The quantified patterns among `patterns` not analysed yet in this process, each once, in order: what analyse is for. */
export function patternsToAnalyse(patterns: Iterable<string>): PatternToAnalyse[] {
  const seen = new Set<string>();
  const list: PatternToAnalyse[] = [];
  for (const pattern of patterns) {
    if (seen.has(pattern) || verdicts.has(pattern)) continue;
    seen.add(pattern);
    const toAnalyse = needsAnalysis(pattern);
    if (toAnalyse) list.push(toAnalyse);
  }
  return list;
}

/**
 * An invalid pattern is ignored by the router: nothing to run. Without a quantifier, every start position costs at
 * most the pattern's length: nothing to analyse (Stripe's hundreds of `^/v1/…` patterns).
 */
function needsAnalysis(pattern: string): PatternToAnalyse | undefined {
  const unicode = compiles(pattern, "u");
  if ((!unicode && !compiles(pattern, "")) || !/[*+?{]/.test(pattern)) return undefined;
  return { pattern, unicode };
}

const VERDICTS: Record<Outcome, Verdict> = {
  [Outcome.Safe]: "linear",
  [Outcome.HitMaxSteps]: "undecided",
  [Outcome.Unsafe]: "super-linear",
  [Outcome.Threw]: "undecided",
};

function verdictOf(pattern: string): Verdict {
  let verdict = verdicts.get(pattern);
  if (verdict === undefined && pending) {
    const outcomes = pending();
    pending = undefined;
    for (const [analysed, outcome] of outcomes) verdicts.set(analysed, VERDICTS[outcome]);
    verdict = verdicts.get(pattern);
  }
  if (verdict === undefined) {
    const toAnalyse = needsAnalysis(pattern);
    verdict = toAnalyse ? VERDICTS[analyse(toAnalyse)] : "linear";
    verdicts.set(pattern, verdict);
  }
  return verdict;
}

/** Whether the native engine may take super-linear time on `pattern` (memoised per process: watch mode). */
export function isSuperLinear(pattern: string): boolean {
  return verdictOf(pattern) !== "linear";
}

function compiles(pattern: string, flags: string): boolean {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every `pattern` (and `patternProperties` key) under `paths` and `components` of the document, in document order,
 * with its JSON pointer. Vendor extensions (`x-…`) and example values are not schemas and are skipped; the entries of
 * a map of names (`properties`, …) are schemas whatever their names.
 */
export function findPatterns(document: Record<string, unknown>): { pattern: string; pointer: string[] }[] {
  return walked(document).patterns;
}

/** Schema keywords the router does not enforce (`$dynamicRef`, `$recursiveRef`) where they appear, in document order. */
export function findUnenforced(document: Record<string, unknown>): { keyword: string; pointer: string[] }[] {
  return walked(document).unenforced;
}

/**
 * Keywords that assert something the router's validator does not check: the dynamic references of 2019-09/2020-12,
 * which resolve against the evaluation path (extensible recursive schemas) rather than a fixed location.
 */
const UNENFORCED = new Set(["$dynamicRef", "$recursiveRef"]);

interface Walked {
  patterns: { pattern: string; pointer: string[] }[];
  unenforced: { keyword: string; pointer: string[] }[];
}

function walked(document: Record<string, unknown>): Walked {
  // Asked twice of the same document in a run (what to hand the pattern thread, then the server's list).
  let found = foundIn.get(document);
  if (!found) foundIn.set(document, (found = walkPatterns(document)));
  return found;
}
const foundIn = new WeakMap<object, Walked>();

function walkPatterns(document: Record<string, unknown>): Walked {
  const found: { pattern: string; pointer: string[] }[] = [];
  const unenforced: { keyword: string; pointer: string[] }[] = [];
  // One path, pushed and popped on the way down: a copy is made only for a pattern found (a copy per node visited
  // was most of this walk's time on GitHub's description).
  const path: string[] = [];
  // `names`: the node maps names to objects (`properties`, `schemas`, …), so a key is a name whatever it spells — a
  // property called `default`, `x-code` or `patternProperties` is a schema like any other, not a keyword.
  const visit = (node: unknown, names: boolean): void => {
    if (Array.isArray(node)) {
      for (let index = 0; index < node.length; index++) {
        path.push(String(index));
        visit(node[index], false);
        path.pop();
      }
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const key in node) {
      if (!Object.hasOwn(node, key) || (!names && (key.startsWith("x-") || DATA_KEYWORDS.has(key)))) continue;
      const value = (node as Record<string, unknown>)[key];
      path.push(key);
      if (names) visit(value, false);
      else if (key === "pattern" && typeof value === "string") found.push({ pattern: value, pointer: [...path] });
      else if (UNENFORCED.has(key)) unenforced.push({ keyword: key, pointer: [...path] });
      else if (key === "patternProperties" && value !== null && typeof value === "object" && !Array.isArray(value)) {
        for (const [source, schema] of Object.entries(value)) {
          path.push(source);
          found.push({ pattern: source, pointer: [...path] });
          visit(schema, false);
          path.pop();
        }
      } else visit(value, NAME_MAPS.has(key));
      path.pop();
    }
  };
  for (const section of ["paths", "components"]) {
    path.push(section);
    visit(document[section], false);
    path.pop();
  }
  return { patterns: found, unenforced };
}

/** The super-linear patterns of the document, each once, in the order they first appear, with where that is. */
export function superLinearPatterns(document: Record<string, unknown>): SuperLinearPattern[] {
  const byPattern = new Map<string, SuperLinearPattern>();
  for (const { pattern, pointer } of findPatterns(document)) {
    const known = byPattern.get(pattern);
    if (known) known.occurrences++;
    else if (isSuperLinear(pattern)) byPattern.set(pattern, { pattern, pointer, occurrences: 1 });
  }
  return [...byPattern.values()];
}

/** Patterns JavaScript cannot compile (with the `u` flag or without), each once, where they first appear. */
export function invalidPatterns(document: Record<string, unknown>): { pattern: string; pointer: string[]; occurrences: number }[] {
  const byPattern = new Map<string, { pattern: string; pointer: string[]; occurrences: number } | null>();
  for (const { pattern, pointer } of findPatterns(document)) {
    const known = byPattern.get(pattern);
    if (known) known.occurrences++;
    else if (known === undefined) byPattern.set(pattern, compiles(pattern, "u") || compiles(pattern, "") ? null : { pattern, pointer, occurrences: 1 });
  }
  return [...byPattern.values()].filter((found) => found !== null);
}

/**
 * One warning per invalid pattern (at its first occurrence) and per unenforced keyword: what the generated router
 * then does, and how to fix it.
 */
export function validationWarnings(document: Record<string, unknown>): EmitterWarning[] {
  const patterns = invalidPatterns(document).map(({ pattern, pointer, occurrences }) => ({
    message: `pattern ${JSON.stringify(pattern)}${occurrences > 1 ? ` (used in ${occurrences} places)` : ""} is not a valid JavaScript regular expression: the generated router fails closed, refusing every string checked against it`,
    pointer,
    hint: "fix the pattern (JavaScript has no inline flags such as `(?i)`: spell both cases out, `[Aa]`), or hand the router a matcher that takes it (`patterns.compile`); docs/security.md",
  }));
  const keywords = findUnenforced(document).map(({ keyword, pointer }) => ({
    message: `${keyword} is not enforced by the generated router: what it points to is not checked`,
    pointer,
    hint: "use a `$ref` to the schema itself; docs/security.md lists what the router does not enforce",
  }));
  return [...patterns, ...keywords];
}

/** One warning per super-linear pattern, at its first occurrence. */
export function superLinearWarnings(patterns: readonly SuperLinearPattern[]): EmitterWarning[] {
  return patterns.map(({ pattern, pointer, occurrences }) => ({
    message: `pattern ${JSON.stringify(pattern)}${occurrences > 1 ? ` (used in ${occurrences} places)` : ""} ${verdictOf(pattern) === "super-linear" ? "can backtrack catastrophically (time super-linear in the length of the string)" : "could not be shown to run in linear time"}: the generated router matches it with its linear-time matcher, within a bounded amount of work`,
    pointer,
    hint: "rewrite it without nested or overlapping quantifiers (`^(a+)+$` is `^a+$`), and give the string a maxLength; see docs/security.md",
  }));
}
