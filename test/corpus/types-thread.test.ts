import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanupTempDirs, runBin, snapshotTree, tempDir } from "../helpers.js";
import { corpusDocuments } from "./corpus.js";

afterAll(cleanupTempDirs);

/**
 * schema.ts emitted in a worker thread (src/types-thread.ts; `SPECFORGE_THREADS=2` forces it on whatever the spec's
 * size) is byte-identical to the main thread's (`SPECFORGE_THREADS=1`) on every public document of the corpus, and so
 * is every other file.
 */
describe("types thread: the same output as the main thread on every corpus document", () => {
  it.each(corpusDocuments().map((doc) => [doc.name, doc.path] as const))("%s", async (_name, spec) => {
    const dir = tempDir();
    const thread = await runBin(["generate", "--spec", spec, "--out", join(dir, "thread")], dir, { SPECFORGE_THREADS: "2" });
    const sequential = await runBin(["generate", "--spec", spec, "--out", join(dir, "sequential")], dir, { SPECFORGE_THREADS: "1" });
    expect({ code: thread.code, stderr: thread.stderr }).toEqual({ code: sequential.code, stderr: sequential.stderr });
    if (sequential.code !== 0) return; // a document the generator refuses: refused the same way (above)
    const a = snapshotTree(join(dir, "thread"));
    const b = snapshotTree(join(dir, "sequential"));
    expect([...a.keys()]).toEqual([...b.keys()]);
    expect(a.get("schema.ts")!.content === b.get("schema.ts")!.content).toBe(true);
    for (const [path, state] of a) expect(state.content === b.get(path)!.content, path).toBe(true);
  });
});
