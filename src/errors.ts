import { relative } from "node:path";
import { isHttpUrl } from "./openapi/url.js";
import { toJsonPointer } from "./openapi/pointer.js";

/**
 * A mistake the user can fix (bad spec, bad flag, bad output folder). The CLI prints `message` alone, without a
 * stack, and exits with code 2; anything else that is thrown is a bug in specforge and is reported as such.
 */
export class UserError extends Error {
  override name = "UserError";
  /** Where the problem is: `file:line:column`, `file#/json/pointer`, or a path. */
  readonly location: string | undefined;
  /** One sentence on how to fix it, when there is one. */
  readonly hint: string | undefined;

  constructor(message: string, options: { location?: string; hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.location = options.location;
    this.hint = options.hint;
  }

  /** The one-paragraph text shown to the user. */
  format(): string {
    const where = this.location ? `${this.location}: ` : "";
    const hint = this.hint ? `\n  hint: ${this.hint}` : "";
    return `${where}${this.message}${hint}`;
  }
}

/** A thrown error as it crosses a thread: a UserError keeps its parts; anything else is a bug, with its stack. */
export type SerializedError = { user: true; message: string; location?: string; hint?: string } | { user: false; message?: string; stack: string };

export function serializeError(error: unknown): SerializedError {
  if (error instanceof UserError) return { user: true, message: error.message, location: error.location, hint: error.hint };
  return { user: false, ...(error instanceof Error ? { message: error.message } : {}), stack: (error as Error)?.stack ?? String(error) };
}

/** The error as the thread that threw it had it: a UserError (exit 2) or a bug (exit 3) whose stack is the thrower's. */
export function deserializeError(error: SerializedError): Error {
  if (error.user) return new UserError(error.message, { location: error.location, hint: error.hint });
  const bug = new Error(error.message ?? "a worker failed");
  bug.stack = error.stack;
  return bug;
}

/**
 * Something in the spec specforge accepted but could not read the way its author probably meant (an unquoted `#`
 * that YAML took for a comment, say). Generation goes on; the CLI prints each warning on stderr.
 */
export interface SpecWarning {
  /** What happened and what specforge did about it. */
  message: string;
  /** Where: `file:line:column` or `file#/json/pointer`. */
  location: string;
  /** How to fix it, when there is a fix. */
  hint?: string;
}

/** The text shown to the user for a warning, in the same shape as a UserError's. */
export function formatWarning(warning: SpecWarning): string {
  return `${warning.location}: ${warning.message}${warning.hint ? `\n  hint: ${warning.hint}` : ""}`;
}

/** `file:line:column` with 1-based line and column, the form editors and terminals turn into links. */
export function formatPosition(file: string, line: number, column: number): string {
  return `${file}:${line}:${column}`;
}

/** `file#/a/b` with the pointer escaped per RFC 6901. */
export function formatPointer(file: string, pointer: readonly (string | number)[]): string {
  return `${file}#${toJsonPointer(pointer)}`;
}


/** A path as messages show it: relative to cwd when inside it, absolute otherwise; always with forward slashes. A URL is shown as it is. */
export function toDisplayPath(file: string, cwd: string): string {
  if (isHttpUrl(file)) return file;
  const rel = relative(cwd, file);
  const shown = rel && !rel.startsWith("..") ? rel : file;
  return shown.split("\\").join("/");
}
