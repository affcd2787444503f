import type { Project } from "ts-morph";
import { morph } from "../deps.js";

let project: Project | undefined;

/**
 * The one ts-morph Project of a run: in memory, no tsconfig, no lib files, and never asked for types or
 * diagnostics, so building a file is a single parse and print. Emitters create each file once from structures.
 */
export function sourceProject(): Project {
  const { IndentationText, NewLineKind, Project: MorphProject, QuoteKind } = morph();
  project ??= new MorphProject({
    useInMemoryFileSystem: true,
    skipAddingFilesFromTsConfig: true,
    skipLoadingLibFiles: true,
    skipFileDependencyResolution: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      newLineKind: NewLineKind.LineFeed,
      quoteKind: QuoteKind.Double,
      useTrailingCommas: true,
    },
  });
  return project;
}

/** Prints a file built from statements and forgets it, so repeated runs in one process do not accumulate files. */
export function printSourceFile(path: string, build: (file: import("ts-morph").SourceFile) => void): string {
  const p = sourceProject();
  const file = p.createSourceFile(`/${path}`, "", { overwrite: true });
  build(file);
  const text = file.getFullText();
  p.removeSourceFile(file);
  return text;
}
