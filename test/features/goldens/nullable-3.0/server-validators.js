// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  ["active","retired"],\
  ["active",null],\
  [],\
  ["routes",0,"params","path",0,"schema"],\
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
  const E15 = new Set(S[0]);
  const E22 = new Set(S[1]);
  const K27 = new Set(S[2]);

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

  function v0(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v3(x, d, f) {
    if (x === null) return true;
    if (typeof x !== "string") return false;
    return true;
  }

  function v4(x, d, f) {
    if (x === null) return true;
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v8(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v7(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v8(p, d + 1, f)) return false;
    }
    return true;
  }

  function u9(x, d, f) {
    if (v7(x, d, false)) {
      return true;
    }
    return false;
  }

  function v5(x, d, f) {
    if (x === null) return true;
    if (!u9(x, d, f)) return false;
    return true;
  }

  function v10(x, d, f) {
    if (x === null) return true;
    if (!v7(x, d, f)) return false;
    return true;
  }

  function v14(x, d, f) {
    if (--B.left < 0) return false;
    if (typeof x !== "string") return false;
    if (!E15.has(x)) return false;
    return true;
  }

  function u16(x, d, f) {
    if (v14(x, d, false)) {
      return true;
    }
    return false;
  }

  function v12(x, d, f) {
    if (x === null) return true;
    if (!u16(x, d, f)) return false;
    return true;
  }

  function v18(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null) return true;
    if (typeof x !== "string") return false;
    if (!E15.has(x)) return false;
    return true;
  }

  function v21(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null) return true;
    if (typeof x !== "string") return false;
    if (!E22.has(x)) return false;
    return true;
  }

  function v23(x, d, f) {
    if (x === null) return true;
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v3(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v25(x, d, f) {
    if (x === null) return true;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      const k = Object.keys(x);
      for (const key of k) {
        if (K27.has(key)) continue;
        if (!v8(x[key], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v2(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["age"];
      if (p !== undefined && !v4(p, d + 1, f)) return false;
      p = x["owner"];
      if (p !== undefined && !v5(p, d + 1, f)) return false;
      p = x["ownerViaAllOf"];
      if (p !== undefined && !v10(p, d + 1, f)) return false;
      p = x["status"];
      if (p !== undefined && !v12(p, d + 1, f)) return false;
      p = x["nullableStatus"];
      if (p !== undefined && !v18(p, d + 1, f)) return false;
      p = x["strictStatus"];
      if (p !== undefined && !v14(p, d + 1, f)) return false;
      p = x["nullListed"];
      if (p !== undefined && !v21(p, d + 1, f)) return false;
      p = x["tags"];
      if (p !== undefined && !v23(p, d + 1, f)) return false;
      p = x["meta"];
      if (p !== undefined && !v25(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[3], v0]);
  out.push([S[4], v2]);
  return out;
}
