/**
 * Long texts of the spec in generated comments. A text written once in the spec can be used many times: a parameter
 * `$ref`'d by every operation, an operation of a path item that many paths `$ref`. Written whole at every use, one
 * long description made hundreds of megabytes of output from a spec of half a megabyte; so a long text is written
 * whole once per file (or where it is declared) and every other use gets its beginning and a pointer to it.
 */

/** Characters above which a text is long: written whole once per file, abridged where it is used again. */
export const LONG_TEXT = 400;

/** What an abridged text keeps: its first paragraph, whitespace collapsed, at most this many characters. */
const ABRIDGED_LENGTH = 200;

/** The first paragraph of a (Markdown) text on one line, at most `max` characters (cut with `…`). */
export function abridge(text: string, max = ABRIDGED_LENGTH): string {
  const paragraph = text.trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, " ").trim();
  if (paragraph.length <= max) return paragraph;
  let cut = max - 1;
  // Never between the two halves of a surrogate pair (a lone half is not text).
  if (/[\ud800-\udbff]/.test(paragraph[cut - 1]!)) cut--;
  return `${paragraph.slice(0, cut).trimEnd()}…`;
}

/** A long text where it is used again: its beginning, and where the whole text is. */
export const abridgedUse = (text: string, whole: string): string => `${abridge(text)} (the whole text: ${whole})`;

/**
 * The long texts one file has written so far: the first use of a text is written whole, a later use of the same text
 * is abridged with a pointer to the first (`where` names it, e.g. the client method).
 */
export class LongTexts {
  private readonly first = new Map<string, string>();

  /** `text` as this use writes it. */
  use(text: string, where: string): string {
    if (text.length <= LONG_TEXT) return text;
    const first = this.first.get(text);
    if (first === undefined) {
      this.first.set(text, where);
      return text;
    }
    return abridgedUse(text, first);
  }
}
