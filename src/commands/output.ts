/**
 * How the CLI talks: colour only on a terminal (or with FORCE_COLOR) and never with NO_COLOR (https://no-color.org),
 * `--quiet` keeps only errors and warnings, `--verbose` adds per-file lines and phase timings.
 */

/** Colour functions; `plain` leaves text as it is. */
export interface Paint {
  red(text: string): string;
  yellow(text: string): string;
  green(text: string): string;
  dim(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;
const identity = (text: string) => text;

export const plain: Paint = { red: identity, yellow: identity, green: identity, dim: identity };
export const colors: Paint = { red: sgr(31, 39), yellow: sgr(33, 39), green: sgr(32, 39), dim: sgr(2, 22) };

/**
 * Whether to colour a stream: NO_COLOR (any non-empty value) always wins; FORCE_COLOR (non-empty, not `0`) turns
 * colour on for pipes too (CI logs); otherwise only a terminal gets colour.
 */
export function useColor(isTTY: boolean | undefined, env: NodeJS.ProcessEnv): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY === true;
}

export type Verbosity = "quiet" | "normal" | "verbose";

/** The CLI's voice for one command. Errors and warnings go to stderr and are never silenced. */
export interface Output {
  verbosity: Verbosity;
  /** Colours for stdout text. */
  paint: Paint;
  /** Colours for stderr text. */
  errorPaint: Paint;
  /** A normal line on stdout (silenced by --quiet). */
  info(text: string): void;
  /** A --verbose line on stdout. */
  detail(text: string): void;
  /** `specforge: warning: …` on stderr. */
  warn(text: string): void;
  /** A line on stderr. */
  error(text: string): void;
}

export interface OutputStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdoutColor: boolean;
  stderrColor: boolean;
}

export function createOutput(streams: OutputStreams, verbosity: Verbosity): Output {
  const paint = streams.stdoutColor ? colors : plain;
  const errorPaint = streams.stderrColor ? colors : plain;
  return {
    verbosity,
    paint,
    errorPaint,
    info: (text) => {
      if (verbosity !== "quiet") streams.stdout(text);
    },
    detail: (text) => {
      if (verbosity === "verbose") streams.stdout(text);
    },
    warn: (text) => streams.stderr(`specforge: ${errorPaint.yellow("warning:")} ${text}`),
    error: (text) => streams.stderr(text),
  };
}
