import type {
  GeneratedValidators,
  ValidatorEnv,
} from "./runtime/server/index.js";

const S: unknown[] = JSON.parse(
  '[\
  ["yes","no"],\
  1,\
  100,\
  ["routes",0,"params","path",0,"schema"],\
  ["routes",0,"params","query",0,"schema"],\
  ["routes",1,"params","path",0,"schema"],\
  ["routes",1,"params","query",0,"schema"],\
  ["routes",1,"params","query",1,"schema"],\
  ["routes",2,"params","query",0,"schema"],\
  ["routes",2,"params","query",1,"schema"],\
  ["routes",2,"params","query",2,"schema"],\
  ["routes",2,"params","query",3,"schema"],\
  ["routes",2,"params","query",4,"schema"],\
  ["routes",2,"params","query",5,"schema"],\
  ["routes",2,"params","query",6,"schema"],\
  ["routes",2,"params","query",7,"schema"],\
  ["routes",2,"params","query",8,"schema"],\
  ["routes",2,"params","header",0,"schema"],\
  ["routes",2,"params","header",1,"schema"],\
  ["routes",2,"params","header",2,"schema"],\
  ["routes",2,"params","cookie",0,"schema"],\
  ["routes",3,"params","path",0,"schema"],\
  ["routes",3,"params","path",1,"schema"],\
  ["routes",3,"params","path",2,"schema"],\
  ["routes",3,"params","path",3,"schema"],\
  ["routes",3,"params","path",4,"schema"],\
  ["routes",3,"params","path",5,"schema"],\
  ["routes",3,"params","path",6,"schema"],\
  ["routes",4,"params","path",0,"schema"],\
  ["routes",4,"params","path",1,"schema"]\
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
  const E4 = new Set(S[0]);

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

  function v1(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v3(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E4.has(x)) return false;
    return true;
  }

  function v5(x, d, f) {
    if (!Number.isInteger(x)) return false;
    if (typeof x === "number") {
      if (x < S[1]) return false;
      if (x > S[2]) return false;
    }
    return true;
  }

  function v6(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v0(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v11(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v10(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v11(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v14(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["color"];
      if (p !== undefined && !v11(p, d + 1, f)) return false;
      p = x["size"];
      if (p !== undefined && !v0(p, d + 1, f)) return false;
    }
    return true;
  }

  function v18(x, d, f) {
    if (!Number.isFinite(x)) return false;
    return true;
  }

  function v17(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["x"];
      if (p !== undefined && !v18(p, d + 1, f)) return false;
      p = x["y"];
      if (p !== undefined && !v18(p, d + 1, f)) return false;
    }
    return true;
  }

  function v20(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p !== undefined && !v11(p, d + 1, f)) return false;
      p = x["age"];
      if (p !== undefined && !v0(p, d + 1, f)) return false;
    }
    return true;
  }

  function v23(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["R"];
      if (p !== undefined && !v0(p, d + 1, f)) return false;
      p = x["G"];
      if (p !== undefined && !v0(p, d + 1, f)) return false;
    }
    return true;
  }

  function v28(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["x"];
      if (p !== undefined && !v0(p, d + 1, f)) return false;
      p = x["y"];
      if (p !== undefined && !v0(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[3], v0]);
  out.push([S[4], v1]);
  out.push([S[5], v0]);
  out.push([S[6], v3]);
  out.push([S[7], v5]);
  out.push([S[8], v6]);
  out.push([S[9], v6]);
  out.push([S[10], v10]);
  out.push([S[11], v10]);
  out.push([S[12], v14]);
  out.push([S[13], v17]);
  out.push([S[14], v20]);
  out.push([S[15], v23]);
  out.push([S[16], v5]);
  out.push([S[17], v11]);
  out.push([S[18], v28]);
  out.push([S[19], v10]);
  out.push([S[20], v11]);
  out.push([S[21], v6]);
  out.push([S[22], v10]);
  out.push([S[23], v6]);
  out.push([S[24], v28]);
  out.push([S[25], v6]);
  out.push([S[26], v28]);
  out.push([S[27], v28]);
  out.push([S[28], v0]);
  out.push([S[29], v11]);
  return out;
}
