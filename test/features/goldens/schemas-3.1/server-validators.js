// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  "thing",\
  2,\
  ["a","b",null],\
  "fixed",\
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
  const E15 = new Set(S[2]);

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

  function v3(x, d, f) {
    if (--B.left < 0) return false;
    if ((T(x) & 3) === 0) return false;
    return true;
  }

  function v5(x, d, f) {
    if (--B.left < 0) return false;
    if (x !== S[0]) return false;
    return true;
  }

  function v7(x, d, f) {
    if (--B.left < 0) return false;
    if (x !== S[1]) return false;
    return true;
  }

  function v9(x, d, f) {
    if (--B.left < 0) return false;
    if ((T(x) & 65) === 0) return false;
    return true;
  }

  function v12(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v11(x, d, f) {
    if (--B.left < 0) return false;
    if ((T(x) & 80) === 0) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v12(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v14(x, d, f) {
    if (--B.left < 0) return false;
    if ((T(x) & 65) === 0) return false;
    if (!E15.has(x)) return false;
    return true;
  }

  function v18(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v17(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v18(p, d + 1, f)) return false;
      p = x["email"];
      if (p !== undefined && !v18(p, d + 1, f)) return false;
    }
    return true;
  }

  function v20(x, d, f) {
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      if (!Object.hasOwn(x, "email")) return false;
    }
    if (!v17(x, d, f)) return false;
    return true;
  }

  function v24(x, d, f) {
    if (x !== null) return false;
    return true;
  }

  function u25(x, d, f) {
    if (v17(x, d, false)) {
      return true;
    }
    if (v24(x, d, false)) {
      return true;
    }
    return false;
  }

  function u26(x, d, f) {
    if (x === null) return true;
    return v17(x, d, f);
  }

  function v22(x, d, f) {
    if (!u26(x, d, f)) return false;
    return true;
  }

  function u29(x, d, f) {
    if (v17(x, d, false)) {
      return true;
    }
    return false;
  }

  function v27(x, d, f) {
    if (x === null) return true;
    if (!u29(x, d, f)) return false;
    return true;
  }

  function v30(x, d, f) {
    if (typeof x !== "string") return false;
    if (x !== S[3]) return false;
    return true;
  }

  function v1(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["id"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["kind"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
      p = x["version"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
      p = x["name"];
      if (p !== undefined && !v9(p, d + 1, f)) return false;
      p = x["flags"];
      if (p !== undefined && !v11(p, d + 1, f)) return false;
      p = x["letter"];
      if (p !== undefined && !v14(p, d + 1, f)) return false;
      p = x["owner"];
      if (p !== undefined && !v17(p, d + 1, f)) return false;
      p = x["contact"];
      if (p !== undefined && !v20(p, d + 1, f)) return false;
      p = x["ownerOrNull"];
      if (p !== undefined && !v22(p, d + 1, f)) return false;
      p = x["legacyNullable"];
      if (p !== undefined && !v27(p, d + 1, f)) return false;
      p = x["inlineConst"];
      if (p !== undefined && !v30(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[4], v1]);
  return out;
}
