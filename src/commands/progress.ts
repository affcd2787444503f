/**
 * The progress line of a long `generate`: after a second, on a terminal only, one line on stderr saying what is
 * being done, rewritten in place and erased when the run ends. Never in pipes, CI logs or with --quiet: there it
 * would be noise (or escape codes) in a log.
 */
import type { CliIO } from "./command.js";

export interface Progress {
  /** What is being done now ("formatting"); shown once the run has taken longer than the delay. */
  update(text: string): void;
  /** Erases the line (if shown) while `print` writes ordinary output, then shows it again. */
  around(print: () => void): void;
  /** Erases the line for good. */
  done(): void;
}

const CLEAR_LINE = "\r\u001b[2K";
const noProgress: Progress = { update: () => {}, around: (print) => print(), done: () => {} };

/** Whether a progress line may be drawn: stderr is a terminal, not CI, not a dumb terminal, not --quiet. */
function progressAllowed(io: CliIO, env: NodeJS.ProcessEnv, quiet: boolean): boolean {
  return Boolean(io.stderrWrite && io.isTTY?.stderr && !quiet && !env.CI && env.TERM !== "dumb");
}

export function createProgress(io: CliIO, env: NodeJS.ProcessEnv, options: { quiet?: boolean; columns?: number } = {}): Progress {
  if (!progressAllowed(io, env, options.quiet === true)) return noProgress;
  const write = io.stderrWrite!;
  const delay = io.progressDelayMs ?? 1000;
  const width = Math.max(20, (options.columns ?? 80) - 1); // a wrapped line could not be erased with \r
  const started = performance.now();
  let text = "";
  let shown = false;
  let finished = false;

  const draw = () => {
    if (finished || text === "") return;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const line = `specforge: ${text} (${seconds}s)`;
    write(`${CLEAR_LINE}${line.length > width ? `${line.slice(0, width - 1)}…` : line}`);
    shown = true;
  };
  const erase = () => {
    if (shown) write(CLEAR_LINE);
    shown = false;
  };
  // Timers only fire between synchronous steps; phase changes redraw too, so the line follows the run either way.
  const first = setTimeout(draw, delay);
  const tick = setInterval(() => shown && draw(), 250);
  first.unref?.();
  tick.unref?.();

  return {
    update(next) {
      text = next;
      if (shown || performance.now() - started >= delay) draw();
    },
    around(print) {
      const wasShown = shown;
      erase();
      print();
      if (wasShown) draw();
    },
    done() {
      finished = true;
      clearTimeout(first);
      clearInterval(tick);
      erase();
    },
  };
}
