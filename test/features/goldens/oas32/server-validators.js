// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  "^[A-Z]{3}$",\
  1,\
  9,\
  ["routes",0,"params","querystring","schema"],\
  ["routes",1,"body","content","application/json","schema"],\
  ["routes",2,"params","querystring","schema"],\
  ["routes",3,"params","querystring","schema"],\
  ["routes",4,"params","path",0,"schema"],\
  ["routes",5,"params","path",0,"schema"],\
  ["routes",5,"params","header",0,"schema"],\
  ["routes",6,"params","path",0,"schema"],\
  ["routes",6,"body","content","application/json","schema"],\
  ["routes",7,"params","path",0,"schema"],\
  ["routes",7,"body","content","multipart/mixed","schema"],\
  ["routes",8,"body","content","application/json","schema"],\
  ["routes",9,"params","cookie",0,"schema"],\
  ["routes",9,"params","cookie",1,"schema"],\
  ["routes",9,"params","cookie",2,"schema"],\
  ["routes",9,"params","cookie",3,"schema"],\
  ["routes",9,"params","cookie",4,"schema"],\
  ["routes",9,"params","cookie",5,"schema"]\
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
  const P0 = env.pattern(S[0]);

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
    if (--B.left < 0) return false;
    if (typeof x !== "string") return false;
    if (typeof x === "string" && P0(x) !== MATCH) return false;
    return true;
  }

  function v3(x, d, f) {
    if (!Number.isFinite(x)) return false;
    return true;
  }

  function v5(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v4(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v5(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v6(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["after"];
      if (p !== undefined && !v5(p, d + 1, f)) return false;
      p = x["before"];
      if (p !== undefined && !v5(p, d + 1, f)) return false;
    }
    return true;
  }

  function v0(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["from"];
      if (p === undefined || !v2(p, d + 1, f)) return false;
      p = x["maxPrice"];
      if (p !== undefined && !v3(p, d + 1, f)) return false;
      p = x["carriers"];
      if (p !== undefined && !v4(p, d + 1, f)) return false;
      p = x["when"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
    }
    return true;
  }

  function v12(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v9(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["from"];
      if (p === undefined || !v2(p, d + 1, f)) return false;
      p = x["to"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["nonStop"];
      if (p !== undefined && !v12(p, d + 1, f)) return false;
    }
    return true;
  }

  function v16(x, d, f) {
    if ((T(x) & 72) === 0) return false;
    return true;
  }

  function v13(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["ids"];
      if (p !== undefined && !v4(p, d + 1, f)) return false;
      p = x["flag"];
      if (p !== undefined && !v16(p, d + 1, f)) return false;
    }
    return true;
  }

  function v22(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["target"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
    }
    return true;
  }

  function v27(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v26(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["count"];
      if (p === undefined || !v27(p, d + 1, f)) return false;
      p = x["camera"];
      if (p !== undefined && !v5(p, d + 1, f)) return false;
    }
    return true;
  }

  function v25(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (x.length < S[1]) return false;
      if (d > M) return false;
      if (x.length > 0 && !v26(x[0], d + 1, f)) return false;
      for (let i = 1; i < x.length; i++) {
        if (!v5(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v34(x, d, f) {
    if (!Number.isInteger(x)) return false;
    if (typeof x === "number") {
      if (x > S[2]) return false;
    }
    return true;
  }

  function v32(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
      p = x["lives"];
      if (p === undefined || !v34(p, d + 1, f)) return false;
    }
    return true;
  }

  function v35(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
      p = x["bark"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
    }
    return true;
  }

  function v41(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p !== undefined && !v5(p, d + 1, f)) return false;
      p = x["name"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
    }
    return true;
  }

  function u44(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["kind"];
    if (t === undefined) return v41(x, d, f);
    switch (t) {
      case "cat":
        return v32(x, d, f);
      case "dog":
        return v35(x, d, f);
      case "OtherPet":
        return v41(x, d, f);
      default:
        return v41(x, d, f);
    }
  }

  function v31(x, d, f) {
    if (--B.left < 0) return false;
    if (!u44(x, d, f)) return false;
    return true;
  }

  function v48(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v27(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v50(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["R"];
      if (p !== undefined && !v27(p, d + 1, f)) return false;
      p = x["G"];
      if (p !== undefined && !v27(p, d + 1, f)) return false;
      p = x["B"];
      if (p !== undefined && !v27(p, d + 1, f)) return false;
    }
    return true;
  }

  function v54(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["w"];
      if (p !== undefined && !v27(p, d + 1, f)) return false;
      p = x["h"];
      if (p !== undefined && !v27(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[3], v0]);
  out.push([S[4], v9]);
  out.push([S[5], v13]);
  out.push([S[6], v5]);
  out.push([S[7], v5]);
  out.push([S[8], v5]);
  out.push([S[9], v5]);
  out.push([S[10], v5]);
  out.push([S[11], v22]);
  out.push([S[12], v5]);
  out.push([S[13], v25]);
  out.push([S[14], v31]);
  out.push([S[15], v5]);
  out.push([S[16], v4]);
  out.push([S[17], v48]);
  out.push([S[18], v50]);
  out.push([S[19], v54]);
  out.push([S[20], v5]);
  return out;
}
