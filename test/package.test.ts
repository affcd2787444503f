import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./helpers.js";

type Manifest = { engines?: { node?: string }; scripts?: Record<string, string>; dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
const read = <T>(path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as T;
const pkg = read<Manifest>("package.json");
const lock = read<{ packages: Record<string, { engines?: { node?: string }; dev?: boolean }> }>("package-lock.json");
const bench = read<Manifest>("bench/package.json");

/** [major, minor, patch] of `20.19` / `20.x` / `20` (missing parts are 0; `x` and `*` too, as lower bounds). */
function parseVersion(text: string): [number, number, number] {
  const parts = text.replace(/^v/, "").split(".").map((p) => (p === "x" || p === "*" ? 0 : Number(p)));
  if (parts.some((p) => !Number.isInteger(p))) throw new Error(`cannot read version ${JSON.stringify(text)}`);
  return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0];
}
const compare = (a: number[], b: number[]) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]!;

/** Whether `version` satisfies an npm `engines` range: `||` of space-separated comparators (>=, >, <=, <, ^, ~, x-ranges). */
function satisfies(version: string, range: string): boolean {
  const v = parseVersion(version);
  return range.split("||").some((alternative) =>
    alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, "$1")
      .split(/\s+/)
      .every((comparator) => {
        const [, op = "", text = ""] = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(comparator) ?? [];
        const bound = parseVersion(text);
        const given = text.replace(/\.[x*]/g, "").split(".").length; // how many parts were pinned
        const c = compare(v, bound);
        switch (op) {
          case ">=": return c >= 0;
          case ">": return c > 0;
          case "<=": return c <= 0;
          case "<": return c < 0;
          case "^": return c >= 0 && (bound[0] > 0 ? v[0] === bound[0] : v[1] === bound[1]);
          case "~": return c >= 0 && v[0] === bound[0] && (given < 2 || v[1] === bound[1]);
          default: return v.slice(0, given).every((part, i) => part === bound[i]);
        }
      }),
  );
}

describe("the package's install", () => {
  it("reads engine ranges the way npm does (the checker below is trusted)", () => {
    expect(satisfies("20.19.0", ">=20.19")).toBe(true);
    expect(satisfies("20.19.0", ">=22.18.0")).toBe(false);
    expect(satisfies("20.19.0", "^20.19.0 || >=22.12.0")).toBe(true);
    expect(satisfies("20.19.0", "18 || 20 || >=22")).toBe(true);
    expect(satisfies("20.19.0", "^20.0.0 || ^22.0.0 || >=24.0.0")).toBe(true);
    expect(satisfies("20.19.0", "^10 || ^12 || >=14")).toBe(true);
    expect(satisfies("20.19.0", ">=22")).toBe(false);
    expect(satisfies("20.19.0", "6.* || 8.* || >= 10.*")).toBe(true);
    expect(satisfies("20.19.0", "^20.20.0")).toBe(false);
  });

  it("npm ci prints no EBADENGINE: every locked package accepts the oldest Node specforge supports", () => {
    const oldest = /^>=\s*(\d+\.\d+(?:\.\d+)?)$/.exec(pkg.engines?.node ?? "")?.[1];
    expect(oldest, "package.json engines.node is a plain lower bound").toBeDefined();
    const refusing = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== "" && entry.engines?.node && !satisfies(oldest!, entry.engines.node))
      .map(([path, entry]) => `${path} (node ${entry.engines!.node})`);
    expect(refusing).toEqual([]);
  });

  it("the benchmarks' peers are bench/'s own dependencies, not the product's", () => {
    const product = { ...pkg.dependencies, ...pkg.devDependencies };
    expect(Object.keys(bench.dependencies ?? {})).toEqual(expect.arrayContaining(["@hey-api/openapi-ts", "orval", "fastify", "autocannon"]));
    for (const name of Object.keys(bench.dependencies ?? {})) {
      if (name === "typescript") continue; // pinned in bench/ to the product's own version
      // ajv is also the tests' independent schema validator, and fastify a framework the adapters are proven with:
      // the same version in both.
      if (name === "ajv" || name === "fastify") {
        expect(product[name], name).toBe(bench.dependencies?.[name]);
        continue;
      }
      expect(product[name], name).toBeUndefined();
    }
    expect(bench.dependencies?.typescript).toBe(pkg.dependencies?.typescript);
  });

  it("no install scripts: the tarball is built by prepack, never by the user's npm install", () => {
    const installScripts = ["preinstall", "install", "postinstall", "prepare", "preprepare", "postprepare"];
    expect(Object.keys(pkg.scripts ?? {}).filter((name) => installScripts.includes(name))).toEqual([]);
    expect(pkg.scripts?.prepack).toBe("npm run build");
  });
});
