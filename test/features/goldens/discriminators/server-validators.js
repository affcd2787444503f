// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse(
  '[\
  ["user"],\
  "assistant",\
  ["tool"],\
  ["system"],\
  ["deleted"],\
  false,\
  true,\
  "circle",\
  "square",\
  ["routes",0,"body","content","application/json","schema"],\
  ["routes",1,"body","content","application/json","schema"],\
  ["routes",2,"body","content","application/json","schema"],\
  ["routes",3,"body","content","application/json","schema"],\
  ["routes",4,"body","content","application/json","schema"],\
  ["routes",5,"body","content","application/json","schema"],\
  ["routes",6,"body","content","application/json","schema"]\
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
  const E6 = new Set(S[0]);
  const E14 = new Set(S[2]);
  const E22 = new Set(S[3]);
  const E35 = new Set(S[4]);

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

  function v5(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E6.has(x)) return false;
    return true;
  }

  function v7(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v4(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["role"];
      if (p === undefined || !v5(p, d + 1, f)) return false;
      p = x["content"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v9(x, d, f) {
    if (x !== S[1]) return false;
    return true;
  }

  function v10(x, d, f) {
    if ((T(x) & 65) === 0) return false;
    return true;
  }

  function v8(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["role"];
      if (p === undefined || !v9(p, d + 1, f)) return false;
      p = x["content"];
      if (p !== undefined && !v10(p, d + 1, f)) return false;
    }
    return true;
  }

  function v13(x, d, f) {
    if (--B.left < 0) return false;
    if (typeof x !== "string") return false;
    if (!E14.has(x)) return false;
    return true;
  }

  function v11(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["role"];
      if (p === undefined || !v13(p, d + 1, f)) return false;
      p = x["tool_call_id"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v18(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["content"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v21(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E22.has(x)) return false;
    return true;
  }

  function v20(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["role"];
      if (p === undefined || !v21(p, d + 1, f)) return false;
    }
    return true;
  }

  function v16(x, d, f) {
    if (--B.left < 0) return false;
    if (!v18(x, d, f)) return false;
    if (!v20(x, d, f)) return false;
    return true;
  }

  function u27(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["role"];
    if (t === undefined) return false;
    switch (t) {
      case "user":
        return v4(x, d, f);
      case "assistant":
        return v8(x, d, f);
      case "tool":
        return v11(x, d, f);
      case "system":
        return v16(x, d, f);
      default:
        return false;
    }
  }

  function v3(x, d, f) {
    if (--B.left < 0) return false;
    if (!u27(x, d, f)) return false;
    return true;
  }

  function v1(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v3(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v0(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["messages"];
      if (p === undefined || !v1(p, d + 1, f)) return false;
    }
    return true;
  }

  function v30(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["type"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
      p = x["id"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v34(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E35.has(x)) return false;
    return true;
  }

  function v33(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["type"];
      if (p === undefined || !v34(p, d + 1, f)) return false;
      p = x["id"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v40(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["type"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
      p = x["name"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function u43(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["type"];
    if (t === undefined) return false;
    switch (t) {
      case "created":
        return v30(x, d, f);
      case "deleted":
        return v33(x, d, f);
      case "RenamedEvent":
        return v40(x, d, f);
      default:
        return false;
    }
  }

  function v29(x, d, f) {
    if (--B.left < 0) return false;
    if (!u43(x, d, f)) return false;
    return true;
  }

  function v47(x, d, f) {
    if (typeof x !== "boolean") return false;
    if (x !== S[5]) return false;
    return true;
  }

  function v46(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["use_custom"];
      if (p === undefined || !v47(p, d + 1, f)) return false;
      p = x["auto_setting"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v50(x, d, f) {
    if (typeof x !== "boolean") return false;
    if (x !== S[6]) return false;
    return true;
  }

  function v51(x, d, f) {
    if (!Number.isInteger(x)) return false;
    return true;
  }

  function v49(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["use_custom"];
      if (p === undefined || !v50(p, d + 1, f)) return false;
      p = x["custom_value"];
      if (p === undefined || !v51(p, d + 1, f)) return false;
    }
    return true;
  }

  function u54(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["use_custom"];
    if (t === undefined) return false;
    switch (t) {
      case "False":
        return v46(x, d, f);
      case "True":
        return v49(x, d, f);
      default:
        return false;
    }
  }

  function v45(x, d, f) {
    if (--B.left < 0) return false;
    if (!u54(x, d, f)) return false;
    return true;
  }

  function v59(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v51(p, d + 1, f)) return false;
    }
    return true;
  }

  function v61(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["one"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v57(x, d, f) {
    if (--B.left < 0) return false;
    if (!v59(x, d, f)) return false;
    if (!v61(x, d, f)) return false;
    return true;
  }

  function v66(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["two"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v64(x, d, f) {
    if (--B.left < 0) return false;
    if (!v59(x, d, f)) return false;
    if (!v66(x, d, f)) return false;
    return true;
  }

  function u68(x, d, f) {
    let w = -1;
    if (v57(x, d, false)) w = 0;
    if (v64(x, d, false)) {
      if (w >= 0) return false;
      w = 1;
    }
    if (w < 0) return false;
    return true;
  }

  function v55(x, d, f) {
    if (!u68(x, d, f)) return false;
    return true;
  }

  function v74(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["petType"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
      p = x["name"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v78(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v77(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["meows"];
      if (p === undefined || !v78(p, d + 1, f)) return false;
    }
    return true;
  }

  function v73(x, d, f) {
    if (--B.left < 0) return false;
    if (!v74(x, d, f)) return false;
    if (!v77(x, d, f)) return false;
    return true;
  }

  function v83(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["barks"];
      if (p === undefined || !v78(p, d + 1, f)) return false;
    }
    return true;
  }

  function v79(x, d, f) {
    if (--B.left < 0) return false;
    if (!v74(x, d, f)) return false;
    if (!v83(x, d, f)) return false;
    return true;
  }

  function u87(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["petType"];
    if (t === undefined) return false;
    switch (t) {
      case "cat":
        return v73(x, d, f);
      case "dog":
        return v79(x, d, f);
      default:
        return false;
    }
  }

  function v70(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["petType"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
      p = x["name"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
    }
    if (!u87(x, d, f)) return false;
    return true;
  }

  function v93(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["wheels"];
      if (p === undefined || !v51(p, d + 1, f)) return false;
    }
    return true;
  }

  function v95(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["doors"];
      if (p === undefined || !v51(p, d + 1, f)) return false;
    }
    return true;
  }

  function v92(x, d, f) {
    if (--B.left < 0) return false;
    if (!v93(x, d, f)) return false;
    if (!v95(x, d, f)) return false;
    return true;
  }

  function v103(x, d, f) {
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      if (!Object.hasOwn(x, "doors")) return false;
    }
    return true;
  }

  function v101(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["bell"];
      if (p === undefined || !v78(p, d + 1, f)) return false;
    }
    if (v103(x, d, false)) return false;
    return true;
  }

  function v98(x, d, f) {
    if (--B.left < 0) return false;
    if (!v93(x, d, f)) return false;
    if (!v101(x, d, f)) return false;
    return true;
  }

  function u104(x, d, f) {
    let w = -1;
    if (v92(x, d, false)) w = 0;
    if (v98(x, d, false)) {
      if (w >= 0) return false;
      w = 1;
    }
    if (w < 0) return false;
    return true;
  }

  function v89(x, d, f) {
    if (--B.left < 0) return false;
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["wheels"];
      if (p === undefined || !v51(p, d + 1, f)) return false;
    }
    if (!u104(x, d, f)) return false;
    return true;
  }

  function v109(x, d, f) {
    if (x !== S[7]) return false;
    return true;
  }

  function v110(x, d, f) {
    if (!Number.isFinite(x)) return false;
    return true;
  }

  function v108(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v109(p, d + 1, f)) return false;
      p = x["radius"];
      if (p === undefined || !v110(p, d + 1, f)) return false;
    }
    return true;
  }

  function v107(x, d, f) {
    if (--B.left < 0) return false;
    if (!v108(x, d, f)) return false;
    return true;
  }

  function v113(x, d, f) {
    if (x !== S[8]) return false;
    return true;
  }

  function v112(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["kind"];
      if (p === undefined || !v113(p, d + 1, f)) return false;
      p = x["side"];
      if (p === undefined || !v110(p, d + 1, f)) return false;
    }
    return true;
  }

  function v111(x, d, f) {
    if (--B.left < 0) return false;
    if (!v112(x, d, f)) return false;
    return true;
  }

  function u117(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    const t = x["kind"];
    if (t === undefined) return false;
    switch (t) {
      case "circle":
        return v107(x, d, f);
      case "square":
        return v111(x, d, f);
      default:
        return false;
    }
  }

  function v106(x, d, f) {
    if (--B.left < 0) return false;
    if (!u117(x, d, f)) return false;
    return true;
  }

  const out = [];
  out.push([S[9], v0]);
  out.push([S[10], v29]);
  out.push([S[11], v45]);
  out.push([S[12], v55]);
  out.push([S[13], v70]);
  out.push([S[14], v89]);
  out.push([S[15], v106]);
  return out;
}
