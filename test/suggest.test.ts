import { describe, expect, it } from "vitest";
import { didYouMean, editDistance } from "../src/config/suggest.js";

const FLAGS = ["spec", "out", "outputs", "format", "config", "project", "quiet", "verbose", "help", "version"];
const COMMANDS = ["init", "generate", "check", "mock", "webhook"];

describe("did you mean", () => {
  it("counts a swapped pair of letters as one edit", () => {
    expect(editDistance("sepc", "spec")).toBe(1);
    expect(editDistance("versoin", "version")).toBe(1);
    expect(editDistance("generat", "generate")).toBe(1);
    expect(editDistance("", "abc")).toBe(3);
  });

  it.each([
    ["sepc", FLAGS, "did you mean spec?"],
    ["versoin", FLAGS, "did you mean version?"],
    ["verison", FLAGS, "did you mean version?"],
    ["generat", COMMANDS, "did you mean generate?"],
    ["chek", COMMANDS, "did you mean check?"],
    ["output", FLAGS, "did you mean outputs?"],
    ["verb", FLAGS, "did you mean verbose?"],
    ["Spec", FLAGS, "did you mean spec?"],
  ])("%s → %s", (typed, candidates, want) => {
    expect(didYouMean(typed, candidates)).toBe(want);
  });

  it("names two equally close candidates, and nothing when nothing is close", () => {
    expect(didYouMean("formt", ["format", "forms"])).toBe("did you mean format or forms?");
    expect(didYouMean("fromat", ["format", "force"])).toBe("did you mean format?");
    expect(didYouMean("forme", ["format", "force"])).toBe("did you mean force?");
    expect(didYouMean("colour", FLAGS)).toBeUndefined();
    expect(didYouMean("x", COMMANDS)).toBeUndefined();
  });
});
