// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  ["user","assistant"],\
  false,\
  ["routes",0,"body","content","application/json","schema"],\
  ["routes",1,"body","content","application/json","schema"]\
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
  const E10 = new Set(S[0]);
  let D17;

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
    if ((T(x) & 68) === 0) return false;
    return true;
  }

  function v3(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["temperature"];
      if (p !== undefined && !v4(p, d + 1, f)) return false;
    }
    return true;
  }

  function v6(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v9(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E10.has(x)) return false;
    return true;
  }

  function v8(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["role"];
      if (p === undefined || !v9(p, d + 1, f)) return false;
      p = x["content"];
      if (p === undefined || !v6(p, d + 1, f)) return false;
    }
    return true;
  }

  function v7(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v8(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v5(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["model"];
      if (p === undefined || !v6(p, d + 1, f)) return false;
      p = x["messages"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v16(x, d, f) {
    if ((T(x) & 72) === 0) return false;
    return true;
  }

  function v15(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      if (f) {
        if (x["stream"] === undefined) {
          D17 ??= v16(clone(S[1]), 0, false);
          if (D17) {
            x["stream"] = clone(S[1]);
          }
        }
      }
      let p;
      p = x["stream"];
      if (p !== undefined && !v16(p, d + 1, f)) return false;
    }
    return true;
  }

  function v13(x, d, f) {
    if (--B.left < 0) return false;
    if (!v15(x, d, f)) return false;
    return true;
  }

  function v1(x, d, f) {
    if (--B.left < 0) return false;
    if (!v3(x, d, f)) return false;
    if (!v5(x, d, f)) return false;
    if (!v13(x, d, f)) return false;
    return true;
  }

  function v21(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["prompt"];
      if (p === undefined || !v6(p, d + 1, f)) return false;
    }
    return true;
  }

  function v20(x, d, f) {
    if (--B.left < 0) return false;
    if (!v21(x, d, f)) return false;
    if (!v15(x, d, f)) return false;
    return true;
  }

  const out = [];
  out.push([S[2], v1]);
  out.push([S[3], v20]);
  return out;
}
