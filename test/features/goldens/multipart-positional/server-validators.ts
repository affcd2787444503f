import type {
  GeneratedValidators,
  ValidatorEnv,
} from "./runtime/server/index.js";

const S: unknown[] = JSON.parse(
  '[\
  1,\
  ["routes",0,"body","content","multipart/mixed","schema"],\
  ["routes",1,"body","content","multipart/form-data","schema"],\
  ["routes",1,"body","content","multipart/related","schema"]\
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

  function v2(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v1(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["count"];
      if (p === undefined || !v2(p, d + 1, f)) return false;
    }
    return true;
  }

  function v3(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v0(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (x.length < S[0]) return false;
      if (d > M) return false;
      if (x.length > 0 && !v1(x[0], d + 1, f)) return false;
      for (let i = 1; i < x.length; i++) {
        if (!v3(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v4(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["note"];
      if (p !== undefined && !v3(p, d + 1, f)) return false;
    }
    return true;
  }

  function v6(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      if (x.length > 0 && !v3(x[0], d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[1], v0]);
  out.push([S[2], v4]);
  out.push([S[3], v6]);
  return out;
}
