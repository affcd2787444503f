/** One output file, as an emitter produces it: unformatted source, no header. */
export interface EmittedFile {
  /** Path relative to the output folder, with forward slashes. */
  path: string;
  content: string;
  /** One line saying what the file is, used in its header. */
  description: string;
}
