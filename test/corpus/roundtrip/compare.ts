/**
 * Comparing what the client was given with what the handler received (and the handler's answer with what the
 * client returned), after the normalisations docs/client.md documents: bytes compare as bytes whatever holds them
 * (Blob, File, Uint8Array), objects compare by their own enumerable keys (the router's parsed objects inherit
 * nothing), and `undefined` properties are absent.
 */

/** A value with every binary holder turned into `{ bytes: "<hex>" }` and every object into a plain one. */
export async function plain(value: unknown, depth = 0): Promise<unknown> {
  if (depth > 256) throw new RangeError("value nested too deeply to compare");
  if (value instanceof Blob) return { bytes: hex(new Uint8Array(await value.arrayBuffer())) };
  if (value instanceof ArrayBuffer) return { bytes: hex(new Uint8Array(value)) };
  if (ArrayBuffer.isView(value)) return { bytes: hex(new Uint8Array(value.buffer, value.byteOffset, value.byteLength)) };
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return Promise.all(value.map((item) => plain(item, depth + 1)));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) if (child !== undefined) out[key] = await plain(child, depth + 1);
    return out;
  }
  return value;
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Where `actual` differs from `expected`, as `$.path: expected … got …` lines (at most `limit`). */
export function differences(expected: unknown, actual: unknown, path = "$", out: string[] = [], limit = 5): string[] {
  if (out.length >= limit) return out;
  if (Object.is(expected, actual)) return out;
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) out.push(`${path}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`);
    else expected.forEach((item, i) => differences(item, actual[i], `${path}[${i}]`, out, limit));
    return out;
  }
  if (isRecord(expected) && isRecord(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      if (!(key in actual)) out.push(`${path}.${key}: missing (expected ${show(expected[key])})`);
      else if (!(key in expected)) out.push(`${path}.${key}: not sent, but received ${show(actual[key])}`);
      else differences(expected[key], actual[key], `${path}.${key}`, out, limit);
      if (out.length >= limit) break;
    }
    return out;
  }
  out.push(`${path}: expected ${show(expected)}, got ${show(actual)}`);
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

export function show(value: unknown): string {
  const text = value === undefined ? "undefined" : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

/**
 * What a form-like encoding (query strings, form bodies, cookies) carries of a value: `null`, `undefined` and empty
 * arrays and objects are left out, as RFC 6570 and docs/client.md say, at any depth.
 */
export function withoutEmpty(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((item) => item !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (isRecord(value) && !(value instanceof Blob)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const kept = withoutEmpty(child);
      if (kept !== undefined) out[key] = kept;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }
  return value === null ? undefined : value;
}
