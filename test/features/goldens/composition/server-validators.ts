import type {
  GeneratedValidators,
  ValidatorEnv,
} from "./runtime/server/index.js";

const S: unknown[] = JSON.parse(
  '[\
  "email",\
  "^[0-9+ ]+$",\
  ["a"],\
  [],\
  ["routes",0,"body","content","application/json","schema"],\
  ["routes",1,"body","content","application/json","schema"],\
  ["routes",2,"body","content","application/json","schema"],\
  ["routes",3,"body","content","application/json","schema"],\
  ["routes",4,"body","content","application/json","schema"],\
  ["routes",5,"body","content","application/json","schema"]\
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
  const F0 = env.format(S[0]);
  const P0 = env.pattern(S[1]);
  const K48 = new Set(S[2]);
  const K52 = new Set(S[3]);

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
    if (typeof x !== "string") return false;
    return true;
  }

  function v4(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v2(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["petType"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["meows"];
      if (p === undefined || !v4(p, d + 1, f)) return false;
    }
    return true;
  }

  function v5(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["petType"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["barks"];
      if (p === undefined || !v4(p, d + 1, f)) return false;
    }
    return true;
  }

  function u10(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["petType"];
    if (t === undefined) return false;
    switch (t) {
      case "cat":
        return v2(x, d, f);
      case "dog":
        return v5(x, d, f);
      default:
        return false;
    }
  }

  function v1(x, d, f) {
    if (--B.left < 0) return false;
    if (!u10(x, d, f)) return false;
    return true;
  }

  function v16(x, d, f) {
    if (!Number.isFinite(x)) return false;
    return true;
  }

  function v14(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["radius"];
      if (p === undefined || !v16(p, d + 1, f)) return false;
    }
    return true;
  }

  function v18(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["side"];
      if (p === undefined || !v16(p, d + 1, f)) return false;
    }
    return true;
  }

  function u21(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["kind"];
    if (t === undefined) return false;
    switch (t) {
      case "Circle":
        return v14(x, d, f);
      case "Square":
        return v18(x, d, f);
      default:
        return false;
    }
  }

  function v12(x, d, f) {
    if (--B.left < 0) return false;
    if (!u21(x, d, f)) return false;
    return true;
  }

  function v23(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["animalType"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["name"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
    }
    return true;
  }

  function v30(x, d, f) {
    if (typeof x !== "string") return false;
    if (typeof x === "string") {
      if (!F0(x)) return false;
    }
    return true;
  }

  function v29(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["email"];
      if (p === undefined || !v30(p, d + 1, f)) return false;
    }
    return true;
  }

  function v33(x, d, f) {
    if (typeof x !== "string") return false;
    if (typeof x === "string" && P0(x) !== MATCH) return false;
    return true;
  }

  function v32(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["phone"];
      if (p === undefined || !v33(p, d + 1, f)) return false;
    }
    return true;
  }

  function u34(x, d, f) {
    if (v29(x, d, false)) {
      return true;
    }
    if (v32(x, d, false)) {
      return true;
    }
    return false;
  }

  function v27(x, d, f) {
    if (--B.left < 0) return false;
    if (!u34(x, d, f)) return false;
    return true;
  }

  function v38(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v36(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v36(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["value"];
      if (p === undefined || !v16(p, d + 1, f)) return false;
      p = x["children"];
      if (p !== undefined && !v38(p, d + 1, f)) return false;
    }
    return true;
  }

  function v43(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["a"];
      if (p !== undefined && !v3(p, d + 1, f)) return false;
    }
    return true;
  }

  function v46(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      const k = Object.keys(x);
      let p;
      p = x["a"];
      if (p !== undefined && !v3(p, d + 1, f)) return false;
      for (const key of k) {
        if (K48.has(key)) continue;
        return false;
      }
    }
    return true;
  }

  function v51(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v50(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      const k = Object.keys(x);
      for (const key of k) {
        if (K52.has(key)) continue;
        if (!v51(x[key], d + 1, f)) return false;
      }
    }
    return true;
  }

  function u57(x, d, f) {
    let w = -1;
    if (v51(x, d, false)) w = 0;
    if (v3(x, d, false)) {
      if (w >= 0) return false;
      w = 1;
    }
    if (w < 0) return false;
    return true;
  }

  function v54(x, d, f) {
    if (--B.left < 0) return false;
    if (!u57(x, d, f)) return false;
    return true;
  }

  function v64(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v59(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v62(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["employees"];
      if (p !== undefined && !v64(p, d + 1, f)) return false;
    }
    return true;
  }

  function v59(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p === undefined || !v3(p, d + 1, f)) return false;
      p = x["employer"];
      if (p !== undefined && !v62(p, d + 1, f)) return false;
    }
    return true;
  }

  function u68(x, d, f) {
    if (v1(x, d, false)) {
      return true;
    }
    return false;
  }

  function v66(x, d, f) {
    if (x === null) return true;
    if (!u68(x, d, f)) return false;
    return true;
  }

  function v69(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (!v1(x, d, f)) return false;
    return true;
  }

  function v41(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["open"];
      if (p !== undefined && !v43(p, d + 1, f)) return false;
      p = x["closed"];
      if (p !== undefined && !v46(p, d + 1, f)) return false;
      p = x["counts"];
      if (p !== undefined && !v50(p, d + 1, f)) return false;
      p = x["id"];
      if (p !== undefined && !v54(p, d + 1, f)) return false;
      p = x["person"];
      if (p !== undefined && !v59(p, d + 1, f)) return false;
      p = x["maybePet"];
      if (p !== undefined && !v66(p, d + 1, f)) return false;
      p = x["restatedPet"];
      if (p !== undefined && !v69(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[4], v1]);
  out.push([S[5], v12]);
  out.push([S[6], v23]);
  out.push([S[7], v27]);
  out.push([S[8], v36]);
  out.push([S[9], v41]);
  return out;
}
