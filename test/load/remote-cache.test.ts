import { createHash } from "node:crypto";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RemoteCache } from "../../src/load/remote-cache.js";
import { cleanupTempDirs, tempDir } from "../helpers.js";

afterAll(cleanupTempDirs);

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const version = (text: string, etag?: string) => ({ sha256: sha256(text), finalUrl: "https://vendor.example.com/openapi.yaml", ...(etag ? { etag } : {}) });
const URL_A = "https://vendor.example.com/openapi.yaml";

describe("the cache of documents from URLs", () => {
  it("returns the latest intact copy, or the one with a given hash; a tampered blob is not returned", () => {
    const root = tempDir();
    const cache = new RemoteCache(root);
    cache.store(URL_A, version("one", '"1"'), Buffer.from("one"));
    cache.store(URL_A, version("two", '"2"'), Buffer.from("two"));
    expect(cache.copy(URL_A)?.bytes.toString()).toBe("two");
    expect(cache.copy(URL_A, sha256("one"))).toEqual({ version: version("one", '"1"'), bytes: Buffer.from("one") });
    expect(cache.copy("https://vendor.example.com/other.yaml")).toBeUndefined();

    writeFileSync(join(root, "specs", "blobs", sha256("two")), "tampered");
    expect(cache.copy(URL_A)?.bytes.toString()).toBe("one");
    expect(cache.copy(URL_A, sha256("two"))).toBeUndefined();
  });

  it("keeps five versions of a URL and deletes the blobs of older ones, unless another URL still lists them", () => {
    const root = tempDir();
    const cache = new RemoteCache(root);
    const URL_B = "https://mirror.example.com/openapi.yaml";
    cache.store(URL_B, version("v0"), Buffer.from("v0"));
    for (let i = 0; i <= 6; i++) cache.store(URL_A, version(`v${i}`), Buffer.from(`v${i}`));
    expect(cache.versions(URL_A).map((v) => v.sha256)).toEqual(["v6", "v5", "v4", "v3", "v2"].map(sha256));
    const blobs = readdirSync(join(root, "specs", "blobs"));
    expect(blobs.sort()).toEqual(["v0", "v2", "v3", "v4", "v5", "v6"].map(sha256).sort());
    expect(existsSync(join(root, "specs", "blobs", sha256("v1")))).toBe(false);
  });

  it("a cache that cannot be written is no cache, not an error", () => {
    const root = tempDir();
    writeFileSync(join(root, "specs"), "a file where the folder would be");
    const cache = new RemoteCache(root);
    expect(() => cache.store(URL_A, version("one"), Buffer.from("one"))).not.toThrow();
    expect(cache.copy(URL_A)).toBeUndefined();
  });
});
