import { describe, expect, it } from "vitest";
import { compileLinearPattern } from "../../../templates/server/pattern.js";
import { MATCH, MISMATCH, PatternBudget, UNCHECKED } from "../../../templates/server/validate.js";

const unlimited = () => new PatternBudget(Number.MAX_SAFE_INTEGER);

/** The linear matcher's answer as a boolean, for comparing with RegExp.prototype.test. */
function linear(source: string, unicode = true): (value: string) => boolean {
  const test = compileLinearPattern(source, unicode, unlimited());
  if (!test) throw new Error(`not compiled: ${source}`);
  return (value) => {
    const result = test(value);
    if (result === UNCHECKED) throw new Error("unchecked");
    return result === MATCH;
  };
}

/**
 * Patterns of the kinds real specs use (many from the public corpus: DigitalOcean, GitHub, Stripe, hey-api's
 * fixtures) and the syntax corners of ECMAScript regexes, each with inputs that match and inputs that do not.
 */
const CASES: [pattern: string, inputs: string[]][] = [
  ["^(a+)+$", ["", "a", "aaaa", "aaaab", "baaa"]],
  ["^[a-z][a-z0-9-]{0,30}[a-z0-9]$", ["ab", "a-b", "a", "a-", "-a", "a".repeat(32), "a".repeat(33)]],
  ["^((xn--)?[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*\\.)+[a-zA-Z]{2,}\\.?$", ["example.com", "xn--bcher-kva.example.", "a.b", "-a.com", "a..com", "a.com."]],
  ["^.+/.+$", ["a/b", "/b", "a/", "a/b/c", "a\n/b", "ab"]],
  ["^[a-zA-Z0-9]?[a-z0-9A-Z.\\-]*[a-z0-9A-Z]$", ["a", "a.b", "a.", ".a", "ab-c"]],
  [".+\\.[Jj][Ss][Oo][Nn][Ll]$", ["x.jsonl", "x.JSONL", ".jsonl", "x.json", "a.jsonl.b"]],
  ["^$|^((25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\\.){3}(25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)$", ["", "1.2.3.4", "255.255.255.255", "256.1.1.1", "1.2.3", "01.02.03.004"]],
  ["^$|[0-9a-f]{8}\\b-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-\\b[0-9a-f]{12}", ["", "x3fa85f64-5717-4562-b3fc-2c963f66afa6x", "3fa85f64-5717-4562-b3fc-2c963f66afa", "g"]],
  ["^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$", ["aGVsbG8=", "aGVsbA==", "aGVs", "aGV", "a===", ""]],
  ["^ssh-(rsa|dss|ed25519) |^ecdsa-sha2-nistp(256|384|521) ", ["ssh-rsa AAA", "ecdsa-sha2-nistp256 x", "ssh-foo x", " ssh-rsa x"]],
  ["^#(([0-9a-fA-F]{2}){3}|([0-9a-fA-F]){3})$", ["#fff", "#ffffff", "#ffff", "fff"]],
  ["^\\p{L}+$", ["héllo", "日本語", "abc1", ""]],
  ["^\\d{2}-\\d{3}-\\d{4}$", ["12-345-6789", "1-345-6789", "١٢-٣٤٥-٦٧٨٩"]],
  ["^\\w+$", ["abc_1", "a-b", ""]],
  ["[a-z]+@", ["abc@", "@", "ABC@x", "x y@"]],
  ["\\bfoo\\b", ["foo", "a foo b", "food", "xfoo"]],
  ["\\Boo\\B", ["food", "oo", "xoox"]],
  ["^[^\\s@]+@[^\\s@]+$", ["a@b", "a@", "a b@c"]],
  ["^Bearer .+$", ["Bearer x", "Bearer ", "bearer x"]],
  ["a|b|", ["", "c"]],
  ["^(?<year>\\d{4})-(?:0[1-9]|1[0-2])$", ["2024-01", "2024-13"]],
  ["^a{2,}b{0,2}c?$", ["aa", "aab", "aabbc", "a", "aabbb"]],
  ["^[^]$", ["a", "\n", ""]],
  ["^.$", ["a", "\n", "\u2028", "😀"]],
  ["^\\u{1F600}$", ["😀", "a"]],
  ["^\\uD83D\\uDE00$", ["😀"]],
  ["^[😀-😂]$", ["😁", "😃"]],
  ["^\\x41\\u0042\\cJ\\0$", ["AB\n\0", "AB\n"]],
  ["^[\\]\\\\-]+$", ["]\\-", "a"]],
  ["^a*?b+?$", ["b", "aab", "a"]],
  ["(a*)*b", ["aaab", "aaaa", ""]],
  ["^(|a)+$", ["", "aaa", "b"]],
  ["aaa\\nbbb", ["aaa\nbbb", "aaanbbb"]],
  ["HH:mm:SS", ["at HH:mm:SS", "HH:mm"]],
  ["^/v1/tax/calculations/[^/]+/line_items", ["/v1/tax/calculations/x/line_items", "/v1/tax/calculations//line_items"]],
];

describe("linear-time pattern matcher", () => {
  it("agrees with the native engine", () => {
    for (const [pattern, inputs] of CASES) {
      const native = new RegExp(pattern, "u");
      const test = linear(pattern);
      for (const input of inputs) expect(test(input), `${pattern} on ${JSON.stringify(input)}`).toBe(native.test(input));
    }
  });

  it("agrees with the native engine in legacy (non-unicode) syntax", () => {
    const legacy: [string, string[]][] = [
      ["^a{,2}$", ["a{,2}", "aa"]],
      ["^\\u00e9\\ud83d$", ["é\ud83d"]],
      ["^[😀]$", ["\ud83d", "😀"]],
      ["^\\-\\_\\:$", ["-_:"]],
      ["x{1}}", ["x}", "xx"]],
      ["^[]a]$", ["a", "]", "", "]a]"]],
    ];
    for (const [pattern, inputs] of legacy) {
      const native = new RegExp(pattern);
      const test = linear(pattern, false);
      for (const input of inputs) expect(test(input), `${pattern} on ${JSON.stringify(input)}`).toBe(native.test(input));
    }
  });

  it("refuses what cannot run in linear time: backreferences and lookaround", () => {
    for (const pattern of ["(a)\\1", "(?<x>a)\\k<x>", "a(?=b)", "a(?!b)", "(?<=a)b", "(?<!a)b"]) {
      expect(compileLinearPattern(pattern, true, unlimited()), pattern).toBeUndefined();
    }
    expect(compileLinearPattern("(", true, unlimited())).toBeUndefined();
  });

  it("stays linear where backtracking explodes", () => {
    const cases: [string, string][] = [
      ["^(a+)+$", `${"a".repeat(100_000)}b`],
      ["[a-z]+@", "a".repeat(100_000)],
      ["^.+/.+$", `a${"/".repeat(100_000)}\n`],
      ["^((xn--)?[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*\\.)+[a-zA-Z]{2,}\\.?$", `${"a-".repeat(50_000)}!`],
    ];
    for (const [pattern, input] of cases) {
      const test = linear(pattern);
      const start = performance.now();
      expect(test(input)).toBe(false);
      expect(performance.now() - start, pattern).toBeLessThan(1_000);
    }
  });

  it("charges its work to the turn's budget and answers UNCHECKED when it is spent", async () => {
    const budget = new PatternBudget(50_000);
    const test = compileLinearPattern("^(a+)+$", true, budget)!;
    expect(test("aaaa")).toBe(MATCH);
    expect(test("a".repeat(100_000))).toBe(UNCHECKED);
    expect(test("aaaa")).toBe(UNCHECKED); // same turn: still spent
    await Promise.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(test("aaab")).toBe(MISMATCH); // a new turn, a new budget
  });
});
