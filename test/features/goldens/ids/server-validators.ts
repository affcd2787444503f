import type {
  GeneratedValidators,
  ValidatorEnv,
} from "./runtime/server/index.js";

const S: unknown[] = JSON.parse(
  '[\
  ["routes",0,"body","content","application/json","schema"],\
  ["routes",1,"params","path",0,"schema"]\
]',
);

export function requestValidators(
  env: ValidatorEnv,
): ReturnType<GeneratedValidators> {
  const M = env.maxDepth;
  const B = env.budget;
  const MATCH = env.MATCH;
  const UNCHECKED = env.UNCHECKED;
  const len = env.len;
  const canon = env.canon;
  const clone = env.clone;
  const unique = env.unique;
  const define = env.define;
  const multipleOf = env.multipleOf;

  function T(x) {
    if (typeof x === "string") return 1;
    if (typeof x === "number") {
      if (Number.isInteger(x)) return 6;
      return Number.isFinite(x) ? 4 : 0;
    }
    if (typeof x === "boolean") return 8;
    if (x === null) return 64;
    if (Array.isArray(x)) return 16;
    return typeof x === "object" ? 32 : 0;
  }

  function v1(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v0(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v1(p, d + 1, f)) return false;
    }
    return true;
  }

  function v3(x, d, f) {
    if (--B.left < 0) return false;
    if (!Number.isInteger(x)) return false;
    return true;
  }

  const out = [];
  out.push([S[0], v0]);
  out.push([S[1], v3]);
  return out;
}
