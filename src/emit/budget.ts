import { printable } from "../diff/format.js";
import { UserError } from "../errors.js";

/**
 * How much output a spec may make: a safety cap, so that a spec built to amplify (a text repeated at every use of a
 * shared component, a type copied into every operation) ends in one message instead of filling the disk and memory.
 * Real specs stay far below it: GitHub's 13 MB description makes 10 MB, Kubernetes' 1.1 MB makes 3.2 MB (the runtime
 * included), the feature fixtures at most a few times their size plus the runtime.
 */
export const OUTPUT_CHARACTERS_PER_SPEC_BYTE = 32;

/** Allowed besides, whatever the spec's size: the runtime modules and the files every output has (under 1 MB). */
export const OUTPUT_CHARACTERS_BASE = 4 * 1024 * 1024;

/** The bytes of every spec file read: what the output is capped relative to. */
export const specBytes = (files: readonly { bytes: number }[]): number => files.reduce((sum, file) => sum + file.bytes, 0);

/** The output's characters counted against the cap, as the emitters produce them (before formatting). */
export class OutputBudget {
  /** Characters the output may have in all. */
  readonly limit: number;
  private spent = 0;

  /** `specBytes`: the bytes of every spec file read. `specShown`: the spec as messages name it. */
  constructor(
    readonly specBytes: number,
    private readonly specShown: string,
  ) {
    this.limit = OUTPUT_CHARACTERS_BASE + OUTPUT_CHARACTERS_PER_SPEC_BYTE * specBytes;
  }

  /** Counts a finished file; throws a UserError naming it when the output passes the cap. */
  add(path: string, content: string): void {
    this.spent += content.length;
    if (this.spent > this.limit) throw this.tooLarge(path, content);
  }

  /**
   * Checks a file while it is made, before it is finished and counted with `add` (`length`: its characters so far;
   * `latest`: the part just made, searched for what repeats): a file that would pass the cap stops as soon as it
   * does, not once it is whole in memory.
   */
  check(path: string, length: number, latest: string): void {
    if (this.spent + length > this.limit) throw this.tooLarge(path, latest);
  }

  private tooLarge(path: string, text: string): UserError {
    const repeated = mostRepeatedBlock(text);
    const cause = repeated
      ? `; ${repeated.lines === 1 ? "a line" : `a block of ${repeated.lines} lines`} is written ${repeated.count} times in its last part: "${printable(repeated.beginning)}"`
      : "";
    return new UserError(
      `the output would pass ${megabytes(this.limit)} (${OUTPUT_CHARACTERS_PER_SPEC_BYTE} characters per byte of the spec's ${megabytes(this.specBytes)}, plus ${megabytes(OUTPUT_CHARACTERS_BASE)}) while ${path} was made${cause}`,
      {
        location: this.specShown,
        hint: "a spec whose text or types are repeated at every use of a shared component makes output out of proportion to its size; shorten what repeats, or report the spec if it is an ordinary one",
      },
    );
  }
}

const megabytes = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB`);

/**
 * The run of lines of `text` that takes the most room by its repetitions: consecutive lines each repeated as often
 * (8 times or more), such as an operation's copy of a type or a description. Its size, count and beginning.
 */
function mostRepeatedBlock(text: string): { lines: number; count: number; beginning: string } | undefined {
  const lines = text.split("\n");
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(line, (counts.get(line) ?? 0) + 1);
  let best: { start: number; end: number; count: number; room: number } | undefined;
  for (let start = 0; start < lines.length; ) {
    const count = counts.get(lines[start]!)!;
    let end = start + 1;
    let room = lines[start]!.length;
    while (end < lines.length && counts.get(lines[end]!) === count) room += lines[end++]!.length;
    if (count >= 8 && room >= 16 && (!best || room * count > best.room * best.count)) best = { start, end, count, room };
    start = end;
  }
  if (!best) return undefined;
  const beginning = lines.slice(best.start, best.end).map((line) => line.trim()).join(" ");
  return { lines: best.end - best.start, count: best.count, beginning: beginning.length > 80 ? `${beginning.slice(0, 80)}…` : beginning };
}
