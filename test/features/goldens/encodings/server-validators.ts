import type {
  GeneratedValidators,
  ValidatorEnv,
} from "./runtime/server/index.js";

const S: unknown[] = JSON.parse(
  '[\
  [""],\
  ["one_off","recurring"],\
  ["","exempt","none","reverse"],\
  [],\
  ["automatic","manual"],\
  ["routes",0,"params","query",0,"schema"],\
  ["routes",0,"params","query",1,"schema"],\
  ["routes",0,"params","query",2,"schema"],\
  ["routes",1,"body","content","application/x-www-form-urlencoded","schema"],\
  ["routes",2,"body","content","multipart/form-data","schema"]\
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
  const E21 = new Set(S[0]);
  const E26 = new Set(S[1]);
  const E29 = new Set(S[2]);
  const K33 = new Set(S[3]);
  const E56 = new Set(S[4]);

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
      p = x["gt"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["lte"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
    }
    return true;
  }

  function u5(x, d, f) {
    if (v1(x, d, false)) {
      return true;
    }
    if (v2(x, d, false)) {
      return true;
    }
    return false;
  }

  function v0(x, d, f) {
    if (!u5(x, d, f)) return false;
    return true;
  }

  function v7(x, d, f) {
    if (typeof x !== "string") return false;
    return true;
  }

  function v6(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v7(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v11(x, d, f) {
    if (typeof x !== "boolean") return false;
    return true;
  }

  function v9(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["id"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["verified"];
      if (p !== undefined && !v11(p, d + 1, f)) return false;
    }
    return true;
  }

  function v8(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["owner"];
      if (p !== undefined && !v9(p, d + 1, f)) return false;
      p = x["tags"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
    }
    return true;
  }

  function v20(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E21.has(x)) return false;
    return true;
  }

  function u22(x, d, f) {
    if (v2(x, d, false)) {
      return true;
    }
    if (v20(x, d, false)) {
      return true;
    }
    return false;
  }

  function v18(x, d, f) {
    if (!u22(x, d, f)) return false;
    return true;
  }

  function v25(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E26.has(x)) return false;
    return true;
  }

  function u27(x, d, f) {
    if (v11(x, d, false)) {
      return true;
    }
    if (v25(x, d, false)) {
      return true;
    }
    return false;
  }

  function v23(x, d, f) {
    if (!u27(x, d, f)) return false;
    return true;
  }

  function v28(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E29.has(x)) return false;
    return true;
  }

  function v31(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      const k = Object.keys(x);
      for (const key of k) {
        if (K33.has(key)) continue;
        if (!v7(x[key], d + 1, f)) return false;
      }
    }
    return true;
  }

  function u35(x, d, f) {
    if (v31(x, d, false)) {
      return true;
    }
    if (v20(x, d, false)) {
      return true;
    }
    return false;
  }

  function v30(x, d, f) {
    if (!u35(x, d, f)) return false;
    return true;
  }

  function v48(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["name"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["value"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v47(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v48(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function u52(x, d, f) {
    if (v47(x, d, false)) {
      return true;
    }
    if (v20(x, d, false)) {
      return true;
    }
    return false;
  }

  function v46(x, d, f) {
    if (!u52(x, d, f)) return false;
    return true;
  }

  function v40(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["footer"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["days_until_due"];
      if (p !== undefined && !v18(p, d + 1, f)) return false;
      p = x["custom_fields"];
      if (p !== undefined && !v46(p, d + 1, f)) return false;
    }
    return true;
  }

  function v55(x, d, f) {
    if (typeof x !== "string") return false;
    if (!E56.has(x)) return false;
    return true;
  }

  function v58(x, d, f) {
    if (!Number.isFinite(x)) return false;
    return true;
  }

  function v54(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["reconciliation_mode"];
      if (p !== undefined && !v55(p, d + 1, f)) return false;
      p = x["enabled"];
      if (p !== undefined && !v11(p, d + 1, f)) return false;
      p = x["threshold"];
      if (p !== undefined && !v58(p, d + 1, f)) return false;
    }
    return true;
  }

  function v53(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["settings"];
      if (p !== undefined && !v54(p, d + 1, f)) return false;
    }
    return true;
  }

  function v59(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["city"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
    }
    return true;
  }

  function v61(x, d, f) {
    if (!Array.isArray(x)) return false;
    if (Array.isArray(x)) {
      if (d > M) return false;
      for (let i = 0; i < x.length; i++) {
        if (!v2(x[i], d + 1, f)) return false;
      }
    }
    return true;
  }

  function v67(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["x"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["y"];
      if (p !== undefined && !v58(p, d + 1, f)) return false;
    }
    return true;
  }

  function v14(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["email"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["name"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["balance"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["application_fee_amount"];
      if (p !== undefined && !v18(p, d + 1, f)) return false;
      p = x["off_session"];
      if (p !== undefined && !v23(p, d + 1, f)) return false;
      p = x["tax_exempt"];
      if (p !== undefined && !v28(p, d + 1, f)) return false;
      p = x["metadata"];
      if (p !== undefined && !v30(p, d + 1, f)) return false;
      p = x["preferred_locales"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
      p = x["expand"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
      p = x["invoice_settings"];
      if (p !== undefined && !v40(p, d + 1, f)) return false;
      p = x["cash_balance"];
      if (p !== undefined && !v53(p, d + 1, f)) return false;
      p = x["shipping_json"];
      if (p !== undefined && !v59(p, d + 1, f)) return false;
      p = x["csv"];
      if (p !== undefined && !v61(p, d + 1, f)) return false;
      p = x["pipes"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
      p = x["redirect"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["id_json"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["point"];
      if (p !== undefined && !v67(p, d + 1, f)) return false;
    }
    return true;
  }

  function v76(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["a"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["b"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
    }
    return true;
  }

  function v81(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["create"];
      if (p !== undefined && !v11(p, d + 1, f)) return false;
      p = x["expires_at"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["metadata"];
      if (p !== undefined && !v31(p, d + 1, f)) return false;
    }
    return true;
  }

  function v70(x, d, f) {
    if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
    if (x !== null && typeof x === "object" && !Array.isArray(x)) {
      if (d > M) return false;
      let p;
      p = x["file"];
      if (p === undefined || !v7(p, d + 1, f)) return false;
      p = x["purpose"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["count"];
      if (p !== undefined && !v2(p, d + 1, f)) return false;
      p = x["tags"];
      if (p !== undefined && !v6(p, d + 1, f)) return false;
      p = x["meta"];
      if (p !== undefined && !v76(p, d + 1, f)) return false;
      p = x["doc"];
      if (p !== undefined && !v7(p, d + 1, f)) return false;
      p = x["file_link_data"];
      if (p !== undefined && !v81(p, d + 1, f)) return false;
    }
    return true;
  }

  const out = [];
  out.push([S[5], v0]);
  out.push([S[6], v6]);
  out.push([S[7], v8]);
  out.push([S[8], v14]);
  out.push([S[9], v70]);
  return out;
}
