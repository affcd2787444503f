// @ts-self-types="./server-validators.d.ts"
const S = JSON.parse("[]");

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

  const out = [];
  return out;
}
