/**
 * HTML in descriptions, as Markdown. Some specs (Stripe's) write descriptions in HTML (`<p>`, `<a href>`, `<code>`),
 * which JSDoc shows as raw tags; editors render JSDoc as Markdown. This converts the tags real specs use — p, br,
 * h1–h6, ul/ol/li, pre, code, a, strong/b, em/i — and their entities. Anything else is text: an unknown tag
 * (`<api_key>`, `<branch>`, a placeholder) stays as written, and so does a Markdown code span.
 *
 * It only rearranges text: the result goes through the same `*​/` escaping as any other description, and a link
 * keeps its text but loses its target unless the target is http(s), mailto or a relative path.
 */

const INLINE_TAGS = new Set(["code", "a", "strong", "b", "em", "i", "br"]);
const BLOCK_TAGS = new Set(["p", "pre", "ul", "ol", "li", "h1", "h2", "h3", "h4", "h5", "h6"]);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^<>]*?)?)\s*(\/?)>/g;
const KNOWN_TAG = /<\/?(?:p|br|code|pre|a|ul|ol|li|strong|em|b|i|h[1-6])(?:\s[^<>]*)?\/?>/i;

/** True when the text holds at least one of the converted tags. */
export function hasHtml(text: string): boolean {
  return text.includes("<") && KNOWN_TAG.test(text);
}

const BLOCK_TAG = /<\/?(?:p|ul|ol|li|pre|h[1-6])(?:\s[^<>]*)?\/?>/i;

/**
 * The Markdown for a description with HTML in it; text without the converted tags is returned unchanged.
 *
 * A description with block tags (p, lists, pre, headings) is an HTML document (Stripe's): it is converted whole,
 * whitespace collapsed as HTML does. One with only inline tags is Markdown with some HTML in it (DigitalOcean's
 * tables with `<br>` in cells): only code, a, strong/b and em/i are rewritten, in place; its line structure,
 * `<br>` and everything else stay as written, as CommonMark allows them.
 */
export function htmlToMarkdown(text: string): string {
  if (!hasHtml(text)) return text;
  return new Converter(!BLOCK_TAG.test(text)).convert(text);
}

interface List {
  ordered: boolean;
  next: number;
}

class Converter {
  constructor(private readonly inlineOnly: boolean) {}

  private out = "";
  private readonly lists: List[] = [];
  private pre = 0;
  /** Just after `<pre>`: HTML drops a newline there. */
  private preStart = false;
  /** Output offsets where an open `<a>` / `<code>` started, with the link's target. */
  private readonly spans: { tag: string; start: number; href?: string }[] = [];

  convert(text: string): string {
    for (const token of tokens(text)) {
      if (token.kind !== "tag") this.text(token.text, token.kind === "literal");
      else if (this.inlineOnly && !INLINE_REWRITTEN.has(token.name)) this.out += token.raw;
      else this.tag(token.name, token.closing, token.attributes);
    }
    while (this.spans.length > 0) this.closeSpan(this.spans[this.spans.length - 1]!.tag);
    if (this.inlineOnly) return this.out;
    return this.out.replace(/[ \t]+\n/g, "\n").replace(/\n{3,}/g, "\n\n").trim();
  }

  private get inCode(): boolean {
    return this.pre > 0 || this.spans.some((s) => s.tag === "code");
  }

  private text(raw: string, literal: boolean): void {
    if (this.inlineOnly) {
      this.out += !literal && this.inCode ? decodeEntities(raw, false) : raw;
      return;
    }
    if (this.pre > 0) {
      const text = literal ? raw : decodeEntities(raw, false);
      this.out += this.preStart ? text.replace(/^\r?\n/, "") : text;
      this.preStart = false;
      return;
    }
    let text = literal ? raw : decodeEntities(raw, !this.inCode);
    // HTML collapses whitespace; a line break is kept (Markdown reads it as a space) so long paragraphs stay short lines.
    text = text.replace(/[ \t\f\r]+/g, " ").replace(/ ?\n[ \n]*/g, "\n");
    if (this.atLineStart()) text = text.replace(/^[ \n]+/, "");
    if (text === "") return;
    if (this.lists.length > 0) text = text.replace(/\n/g, "\n" + this.indent());
    this.out += text;
  }

  private tag(name: string, closing: boolean, attributes: string): void {
    if (this.inCode && name !== "code" && name !== "pre") return; // tags inside code are dropped, their text stays
    switch (name) {
      case "p":
        this.blockBreak();
        return;
      case "br":
        this.out = this.out.replace(/ +$/, "");
        this.out += "\n" + this.indent();
        return;
      case "h1":
      case "h2":
      case "h3":
      case "h4":
      case "h5":
      case "h6":
        this.blockBreak();
        if (!closing) this.out += "#".repeat(Number(name[1])) + " ";
        return;
      case "ul":
      case "ol":
        if (closing) {
          this.lists.pop();
          if (this.lists.length === 0) this.blockBreak();
          else this.lineBreak();
        } else {
          if (this.lists.length === 0) this.blockBreak();
          else this.lineBreak();
          this.lists.push({ ordered: name === "ol", next: 1 });
        }
        return;
      case "li": {
        this.lineBreak();
        const list = this.lists[this.lists.length - 1];
        if (closing || !list) return;
        this.out += this.indent(this.lists.length - 1) + (list.ordered ? `${list.next++}. ` : "- ");
        return;
      }
      case "pre":
        if (closing) {
          if (this.pre === 0) return;
          this.pre--;
          this.out = this.out.replace(/\n*$/, "") + "\n```";
          this.blockBreak();
        } else {
          this.blockBreak();
          this.out += "```\n";
          this.pre++;
          this.preStart = true;
        }
        return;
      case "strong":
      case "b":
        this.out += "**";
        return;
      case "em":
      case "i":
        this.out += "*";
        return;
      case "code":
        if (this.pre > 0) return;
        if (closing) this.closeSpan("code");
        else this.spans.push({ tag: "code", start: this.out.length });
        return;
      case "a":
        if (closing) this.closeSpan("a");
        else this.spans.push({ tag: "a", start: this.out.length, href: attribute(attributes, "href") });
        return;
    }
  }

  /** Wraps what was written since the matching open tag: a code span, or a link. */
  private closeSpan(tag: string): void {
    const index = this.spans.map((s) => s.tag).lastIndexOf(tag);
    if (index === -1) return;
    while (this.spans.length - 1 > index) this.closeSpan(this.spans[this.spans.length - 1]!.tag);
    const span = this.spans.pop()!;
    const inner = this.out.slice(span.start);
    this.out = this.out.slice(0, span.start);
    if (tag === "code") {
      const code = inner.replace(/\n/g, " ");
      if (code.trim() === "") {
        this.out += code;
        return;
      }
      // A code span is fenced by more backticks than any run inside it.
      const longest = Math.max(0, ...[...code.matchAll(/`+/g)].map((m) => m[0].length));
      const fence = "`".repeat(longest + 1);
      const pad = code.startsWith("`") || code.endsWith("`") ? " " : "";
      this.out += `${fence}${pad}${code}${pad}${fence}`;
      return;
    }
    const href = span.href === undefined ? undefined : safeHref(span.href);
    const label = inner.trim();
    if (href === undefined || label === "") this.out += inner;
    else this.out += `[${label.replace(/[[\]]/g, "\\$&")}](${/[\s()<>]/.test(href) ? `<${href.replace(/[<>]/g, encodeURIComponent)}>` : href})`;
  }

  private atLineStart(): boolean {
    return this.out === "" || /\n[ ]*$/.test(this.out) || /^(?:[ ]*(?:- |\d+\. |#+ ))$/.test(this.out.slice(this.out.lastIndexOf("\n") + 1));
  }

  private indent(levels = this.lists.length): string {
    return "  ".repeat(levels);
  }

  private lineBreak(): void {
    this.out = this.out.replace(/[ ]+$/, "");
    if (this.out !== "" && !this.out.endsWith("\n")) this.out += "\n";
  }

  private blockBreak(): void {
    this.out = this.out.replace(/[ ]+$/, "");
    if (this.out === "") return;
    if (this.lists.length > 0) {
      this.lineBreak();
      return;
    }
    this.out = this.out.replace(/\n*$/, "") + "\n\n";
  }
}

type Token = { kind: "text" | "literal"; text: string } | { kind: "tag"; name: string; closing: boolean; attributes: string; raw: string };

/** The tags rewritten in a description that is Markdown with inline HTML. */
const INLINE_REWRITTEN = new Set(["code", "a", "strong", "b", "em", "i"]);

/** Text, converted tags, and Markdown code spans (kept literally: HTML inside backticks is an example, not markup). */
function tokens(text: string): Token[] {
  const result: Token[] = [];
  const pushText = (chunk: string) => {
    let last = 0;
    for (const match of chunk.matchAll(TAG)) {
      const name = match[2]!.toLowerCase();
      if (!INLINE_TAGS.has(name) && !BLOCK_TAGS.has(name)) continue;
      if (match.index > last) result.push({ kind: "text", text: chunk.slice(last, match.index) });
      result.push({ kind: "tag", name, closing: match[1] === "/", attributes: match[3] ?? "", raw: match[0] });
      last = match.index + match[0].length;
    }
    if (last < chunk.length) result.push({ kind: "text", text: chunk.slice(last) });
  };
  let last = 0;
  for (const match of text.matchAll(/(`+)[^`][\s\S]*?(?<!`)\1(?!`)/g)) {
    if (match.index > last) pushText(text.slice(last, match.index));
    result.push({ kind: "literal", text: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) pushText(text.slice(last));
  return result;
}

/** The value of one attribute (`href="…"`, `href='…'` or `href=…`), entities decoded. */
function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i").exec(attributes);
  if (!match) return undefined;
  return decodeEntities(match[1] ?? match[2] ?? match[3] ?? "", false).trim();
}

/** Link targets that cannot run anything: http(s), mailto, and relative references. */
function safeHref(href: string): string | undefined {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(href.replace(/[\u0000-\u0020]/g, ""));
  if (!scheme) return href === "" ? undefined : href;
  return ["http", "https", "mailto"].includes(scheme[1]!.toLowerCase()) ? href : undefined;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  ldquo: "“",
  rdquo: "”",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  times: "×",
  divide: "÷",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  le: "≤",
  ge: "≥",
  ne: "≠",
  ast: "*",
};

/**
 * Decodes entities. In Markdown text (`keepTagLike`), `&lt;` before a letter, `/`, `!` or `?` stays an entity:
 * decoded, it would read as an HTML tag; Markdown renders the entity as `<`.
 */
function decodeEntities(text: string, keepTagLike: boolean): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (entity, body: string, offset: number, whole: string) => {
    let decoded: string | undefined;
    if (body[0] === "#") {
      const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      decoded = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : undefined;
    } else {
      decoded = NAMED_ENTITIES[body];
    }
    if (decoded === undefined) return entity;
    if (keepTagLike && (decoded === "<" || decoded === "&") && /^[a-zA-Z/!?#]/.test(whole.slice(offset + entity.length))) return entity;
    return decoded;
  });
}
