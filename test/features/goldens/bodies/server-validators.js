// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  ["routes",0,"body","content","application/x-www-form-urlencoded","schema"],\
  ["routes",1,"body","content","multipart/form-data","schema"],\
  ["routes",2,"params","path",0,"schema"],\
  ["routes",3,"params","path",0,"schema"],\
  ["routes",3,"body","content","application/octet-stream","schema"],\
  ["routes",4,"body","content","text/plain","schema"],\
  ["routes",7,"params","path",0,"schema"],\
  ["routes",8,"params","path",0,"schema"]\
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

  function v1(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v2(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v3(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v4(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v1(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v0(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v1(p, d + 1, f)) return false;
      p = x["age"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["agree"];
      if (p !== undefined && !v3(p, d + 1, f)) return false;
      p = x["tags"];
      if (p !== undefined && !v4(p, d + 1, f)) return false;
    }
    return true;
  }

  function v12(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["a"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
    }
    return true;
  }

  function v6(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["file"];
      if (p === undefined || !v1(p, d + 1, f)) return false;
      p = x["description"];
      if (p === undefined || !v1(p, d + 1, f)) return false;
      p = x["count"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["labels"];
      if (p !== undefined && !v4(p, d + 1, f)) return false;
      p = x["meta"];
      if (p !== undefined && !v12(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[0], v0]);
  out.push([S[1], v6]);
  out.push([S[2], v1]);
  out.push([S[3], v1]);
  out.push([S[4], v1]);
  out.push([S[5], v1]);
  out.push([S[6], v1]);
  out.push([S[7], v1]);
  return out;
}
