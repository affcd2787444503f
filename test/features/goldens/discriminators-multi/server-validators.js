// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  ["routes",0,"body","content","application/json","schema"]\
]',
);

export function requestValidators(env) {
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

  function v4(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v6(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v3(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["type"];
      if (p === undefined || !v4(p, d + 1, f)) return false;
      p = x["data"];
      if (p === undefined || !v4(p, d + 1, f)) return false;
      p = x["priority"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
    }
    return true;
  }

  function v1(x, d, f) {
    if (--B.left < 0) return false;
    if (!v3(x, d, f)) return false;
    return true;
  }

  function v9(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      if (!Object.hasOwn(x, "priority")) return false;
    }
    return true;
  }

  function v7(x, d, f) {
    if (--B.left < 0) return false;
    if (!v3(x, d, f)) return false;
    if (!v9(x, d, f)) return false;
    return true;
  }

  function u12(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["type"];
    if (t === undefined) return false;
    switch (t) {
      case "A":
        return v1(x, d, f);
      case "MX":
        return v7(x, d, f);
      default:
        return false;
    }
  }

  function v0(x, d, f) {
    if (!u12(x, d, f)) return false;
    return true;
  }

  const out = [];
  out.push([S[0], v0]);
  return out;
}
