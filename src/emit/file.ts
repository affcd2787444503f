/** One output file, as an emitter produces it: no header. */
export interface EmittedFile {
  /** Path relative to the output folder, with forward slashes. */
  path: string;
  content: string;
  /** One line saying what the file is, used in its header. */
  description: string;
  /**
   * The content as prettier prints it with default settings, when the emitter knows it (the runtime templates are
   * formatted when specforge is built; some emitters print canonical text themselves). Lets a run on a project
   * with default prettier settings skip the formatting pass.
   */
  canonical?: string;
  /** Marked `// @ts-nocheck`: the runtime, the declarations and schema.ts, checked by specforge (see `stampTypeScript`). */
  noCheck?: boolean;
  /** Why the printer could not print this file, so that prettier formats it (`generate --verbose` says so). */
  notCanonical?: string;
  /**
   * The shared runtime folder (relative, `../runtime`) that the file's runtime imports were pointed at after it was
   * printed: its canonical text may need those import statements laid out again (see `layOutRetargetedImports`).
   */
  retargeted?: string;
}
