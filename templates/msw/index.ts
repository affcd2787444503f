/**
 * MSW request handlers for the spec's operations (msw.ts: `createMswHandlers()`, `mswHandler.<operation>(answer)`).
 * A handler matches its operation's method and path under the base URL (the spec's server, or the one given), the
 * way the generated client sends it, and answers with a schema-valid mock (the server's mock generator: the spec's
 * example when it validates) or with the answer it was given, framed as the operation declares: JSON, text, bytes,
 * or a stream (server-sent events, JSON Lines, JSON Text Sequences) of the items given.
 *
 * `msw` (the user's own dependency: https://mswjs.io/docs/api/http) is the only import of this module; the mock
 * values and the stream framing come from the server's runtime, handed over by msw.ts.
 */
import { HttpHandler } from "msw";
import type { MediaSpec, SequenceMediaType, SequenceSpec } from "../server/types.js";

// ---------------------------------------------------------------------------------------------------------------
// Answers, typed from openapi-typescript's operation types
// ---------------------------------------------------------------------------------------------------------------

/** Media types the answer's body is sent as JSON for. */
type JsonMediaType = "application/json" | `application/json;${string}` | `${string}+json` | `${string}+json;${string}`;
/** The body of an answer in media type `M` whose schema's type is `T` (a stream's: the list of items sent one by one). */
type BodyAs<M, T> = M extends SequenceMediaType ? readonly T[] : M extends JsonMediaType ? T : M extends `text/${string}` ? string : Blob | ArrayBuffer | Uint8Array | string;

/** A status key of `responses` as an answer's status: `404` as it is; a range (`4XX`) or `default` as any number. */
type StatusOf<K> = K extends number ? K : number;

/** Headers of an answer. */
export type AnswerHeaders = Record<string, string> | [string, string][] | Headers;

/** An answer without a body (a response that declares no content). */
interface EmptyAnswer<S> {
  status: S;
  body?: undefined;
  contentType?: undefined;
  headers?: AnswerHeaders;
}

/**
 * An answer in one declared media type `M` of `All`: `contentType` may be left out for a JSON media type or when it
 * is the only one (it is then the one sent).
 */
type MediaAnswer<S, M, T, All> = (M extends JsonMediaType ? true : [All] extends [M] ? true : false) extends true
  ? { status: S; contentType?: M; body: BodyAs<M, T>; headers?: AnswerHeaders }
  : { status: S; contentType: M; body: BodyAs<M, T>; headers?: AnswerHeaders };

type AnswersOf<S, X> = X extends { content: infer C }
  ? [keyof C] extends [never]
    ? EmptyAnswer<S>
    : { [M in keyof C & string]: MediaAnswer<S, M, C[M], keyof C & string> }[keyof C & string]
  : EmptyAnswer<S>;

type ResponsesOf<Op> = Op extends { responses: infer R } ? R : {};

/**
 * An answer of operation `Op` (its openapi-typescript type, `paths["/pets/{petId}"]["get"]`): a status it declares
 * (any number for a range or `default`), with the body its response declares for that status: `{ status: 200, body:
 * pet }`, `{ status: 404, body: { message } }`, `{ status: 204 }`; a stream's body is the list of its items.
 */
export type MswAnswer<Op> = { [K in keyof ResponsesOf<Op>]-?: AnswersOf<StatusOf<K>, NonNullable<ResponsesOf<Op>[K]>> }[keyof ResponsesOf<Op>];

type PathParamsOf<Op> = Op extends { parameters: { path: infer P } } ? { [K in keyof P]: string } : Record<string, never>;

/** What a resolver is told: the request, the path parameters (as text, decoded) and the request's cookies. */
export interface MswRequestInfo<Op> {
  request: Request;
  params: PathParamsOf<Op>;
  cookies: Record<string, string>;
}

/**
 * A handler's answer: one answer for every request, or a function of the request returning one (or a `Response`
 * of its own, or undefined to leave the request to the next handler).
 */
export type MswAnswerOrResolver<Op> = MswAnswer<Op> | ((info: MswRequestInfo<Op>) => MswAnswer<Op> | Response | undefined | Promise<MswAnswer<Op> | Response | undefined>);

/** Options of `createMswHandlers` and of each `mswHandler.<operation>`. */
export interface MswHandlerOptions {
  /**
   * The URL the client calls (its `baseUrl`): requests under it are answered. Default: each operation's server as the
   * spec declares it (with its variables' defaults); a relative server URL, or none, matches any origin.
   */
  baseUrl?: string | undefined;
  /** The last message of a server-sent event stream (`data: <terminator>`), as the router's `sseTerminator`; null for none. @default "[DONE]" */
  sseTerminator?: string | null | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// What msw.ts hands over
// ---------------------------------------------------------------------------------------------------------------

/** An operation as msw.ts lists it: name, method as sent, its paths, the index of its server, its responses. */
export type MswOperationRow = [name: string, method: string, paths: string[], server: number, responses: Record<string, { content?: Record<string, MediaSpec> }>];

/** What the server's `mockPayload` makes of an operation's responses (its mock answer). */
export interface MockAnswer {
  status: number;
  contentType: string | undefined;
  body: unknown;
  stream?: { key: string; sequence: SequenceSpec; items: unknown[] } | undefined;
  streamOnly: boolean;
  issues: { at: string; message: string }[];
}

/** What msw.ts gives the runtime: the spec's data and the server runtime's mock and stream framing. */
export interface MswRuntimeInputs {
  /** Each server's URL with its variables' defaults ("" when it has none, or names no host). */
  servers: readonly string[];
  operations: readonly MswOperationRow[];
  /** The mock answer of an operation (made once, on its first request). */
  mock(responses: MswOperationRow[4]): MockAnswer;
  /** A stream's items framed as the response declares (the server runtime's `streamResponse`). */
  stream(items: AsyncIterable<unknown>, options: { status: number; headers?: Record<string, string>; sequence?: SequenceSpec; contentType?: string; terminator: string | null; onError: (error: unknown) => void }): Response;
  /** One line of visible ASCII from a mock's issues, for the `x-specforge-mock-issue` header. */
  describeIssues(issues: MockAnswer["issues"]): string;
}

/** The handlers of msw.ts: all of them in order, and one operation's with a given answer. */
export interface MswRuntime {
  handlers(options?: MswHandlerOptions): HttpHandler[];
  handler(name: string, answer: unknown, options?: MswHandlerOptions): HttpHandler;
}

/** The header a mock answer carries when the generator could not make it valid, saying why. */
export const MOCK_ISSUE_HEADER = "x-specforge-mock-issue";

export function createMswRuntime(inputs: MswRuntimeInputs): MswRuntime {
  const byName = new Map(inputs.operations.map((row) => [row[0], row]));
  const mocks = new Map<string, MockAnswer>();
  const mockOf = (row: MswOperationRow) => {
    let mock = mocks.get(row[0]);
    if (!mock) mocks.set(row[0], (mock = inputs.mock(row[4])));
    return mock;
  };
  const build = (row: MswOperationRow, answer: unknown, options: MswHandlerOptions) => {
    const matcher = pathMatcher(options.baseUrl ?? inputs.servers[row[3]] ?? "", row[2]);
    const terminator = options.sseTerminator === undefined ? "[DONE]" : options.sseTerminator;
    return new HttpHandler(row[1], matcher.regex, async ({ request, cookies }) => {
      const params = matcher.params(new URL(request.url));
      if (params === undefined) return undefined;
      if (answer === undefined) return mockResponse(mockOf(row), request, terminator, inputs);
      const given = typeof answer === "function" ? await (answer as (info: unknown) => unknown)({ request, params, cookies }) : answer;
      if (given === undefined || given instanceof Response) return given;
      return answerResponse(row, given as GivenAnswer, terminator, inputs);
    });
  };
  return {
    handlers(options = {}) {
      // More specific paths first, as the router routes: a literal segment wins over a parameter at the same place.
      const ranked = inputs.operations.map((row, index) => ({ row, index, rank: pathRank(row[2][0] ?? "") }));
      ranked.sort((a, b) => compareRanks(a.rank, b.rank) || a.index - b.index);
      return ranked.map(({ row }) => build(row, undefined, options));
    },
    handler(name, answer, options = {}) {
      const row = byName.get(name);
      if (!row) throw new TypeError(`no operation ${JSON.stringify(name)}`);
      return build(row, answer, options);
    },
  };
}

/** An answer as the user gives it (checked by the types of msw.ts; read loosely here). */
interface GivenAnswer {
  status: number;
  body?: unknown;
  contentType?: string;
  headers?: AnswerHeaders;
}

/** The declared response of a status: its own key, else its range (`4XX`), else `default`. */
function declaredFor(row: MswOperationRow, status: number): { content?: Record<string, MediaSpec> } | undefined {
  const responses = row[4];
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses[`${String(status)[0]}xx`] ?? responses["default"];
}

/** The media type an answer is sent as: the one it names, else the declared JSON one, else the only (first) one. */
function mediaFor(declared: { content?: Record<string, MediaSpec> } | undefined, named: string | undefined): string | undefined {
  if (named !== undefined) return named;
  const types = Object.keys(declared?.content ?? {});
  return types.find((type) => /^application\/(?:[\w.+-]+\+)?json\s*(?:;.*)?$/i.test(type)) ?? types[0];
}

function answerResponse(row: MswOperationRow, answer: GivenAnswer, terminator: string | null, inputs: MswRuntimeInputs): Response {
  const declared = declaredFor(row, answer.status);
  const media = answer.body === undefined ? undefined : mediaFor(declared, answer.contentType);
  const sequence = media === undefined ? undefined : sequenceOf(media, declared?.content?.[media]);
  if (sequence && Array.isArray(answer.body)) {
    const items = answer.body as unknown[];
    return inputs.stream(
      (async function* () {
        yield* items;
      })(),
      { status: answer.status, headers: headerRecord(answer.headers), sequence, contentType: media, terminator, onError: () => undefined },
    );
  }
  return bodyResponse(answer.status, answer.body, media, new Headers(answer.headers));
}

/** The mock answer: streamed when the response declares nothing else, or when the request accepts only the stream. */
function mockResponse(mock: MockAnswer, request: Request, terminator: string | null, inputs: MswRuntimeInputs): Response {
  const headers = new Headers();
  if (mock.issues.length > 0) headers.set(MOCK_ISSUE_HEADER, inputs.describeIssues(mock.issues));
  const stream = mock.stream;
  const accepted = (request.headers.get("accept") ?? "").split(",").map((part) => part.split(";", 1)[0]!.trim().toLowerCase());
  const essence = stream?.key.split(";", 1)[0]!.trim().toLowerCase();
  if (stream && (mock.streamOnly || (accepted.includes(essence!) && !accepted.includes("application/json")))) {
    const items = structuredClone(stream.items);
    return inputs.stream(
      (async function* () {
        yield* items;
      })(),
      { status: mock.status, headers: headerRecord(headers), sequence: stream.sequence, contentType: stream.key, terminator, onError: () => undefined },
    );
  }
  return bodyResponse(mock.status, mock.body === undefined ? undefined : structuredClone(mock.body), mock.contentType, headers);
}

/** How a declared media type streams, if it does (a route table's `sequence`, or `text/event-stream` as data events). */
function sequenceOf(media: string, spec: MediaSpec | undefined): SequenceSpec | undefined {
  if (spec?.sequence) return spec.sequence;
  return media.split(";", 1)[0]!.trim().toLowerCase() === "text/event-stream" ? { format: "sse" } : undefined;
}

/** A body in its media type: JSON for JSON types, text and bytes as they are. */
function bodyResponse(status: number, body: unknown, media: string | undefined, headers: Headers): Response {
  if (body === undefined || status === 204 || status === 205 || status === 304) return new Response(null, { status, headers });
  const type = media ?? "application/json";
  if (!headers.has("content-type")) headers.set("content-type", /^text\//i.test(type) ? `${type}; charset=utf-8` : type);
  const json = /json/i.test(type.split(";", 1)[0]!);
  if (json) return new Response(JSON.stringify(body), { status, headers });
  if (typeof body === "string" || body instanceof Blob || body instanceof ArrayBuffer || body instanceof Uint8Array) return new Response(body as BodyInit, { status, headers });
  return new Response(typeof body === "object" ? JSON.stringify(body) : String(body), { status, headers });
}

function headerRecord(headers: AnswerHeaders | undefined): Record<string, string> {
  return Object.fromEntries(new Headers(headers).entries());
}

// ---------------------------------------------------------------------------------------------------------------
// Matching a request to an operation's path
// ---------------------------------------------------------------------------------------------------------------

interface PathMatcher {
  /** What MSW matches the request's URL (origin and path, no query) against. */
  regex: RegExp;
  /** The path parameters, decoded, when the URL is this operation's (its fixed query pairs included); else undefined. */
  params(url: URL): Record<string, string> | undefined;
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The matcher of an operation's `paths` (templates, `/pets/{petId}`, maybe with a fixed query: `/responses?beta=true`)
 * under `base` (an absolute URL, or a path or "" for any origin): literal text as the URL parser writes it in a path,
 * each `{name}` one segment's worth of text.
 */
function pathMatcher(base: string, paths: readonly string[]): PathMatcher {
  let prefix: string;
  if (/^[a-z][a-z\d+.-]*:\/\/[^/]/i.test(base)) {
    const url = new URL(base);
    prefix = escapeRegex(url.origin) + escapeRegex(encodePath(url.pathname.replace(/\/+$/, "")));
  } else {
    const basePath = base.startsWith("/") ? base.replace(/\/+$/, "") : "";
    prefix = `[a-z][a-z\\d+.-]*://[^/]+${escapeRegex(encodePath(basePath))}`;
  }
  const templates = paths.map((path) => {
    const [template, fixedQuery] = splitQuery(path);
    const pieces = template.split(/(\{[^{}]+\})/);
    const isParam = (piece: string) => /^\{[^{}]+\}$/.test(piece);
    const names = pieces.filter(isParam).map((piece) => piece.slice(1, -1));
    const pattern = (param: string) => pieces.map((piece) => (isParam(piece) ? param : escapeRegex(encodePath(piece)))).join("");
    return { any: pattern("[^/]+?"), regex: new RegExp(`^${prefix}${pattern("([^/]+?)")}$`), names, fixedQuery };
  });
  return {
    regex: new RegExp(`^${prefix}(?:${templates.map((t) => t.any).join("|")})$`),
    params(url) {
      for (const { regex, names, fixedQuery } of templates) {
        const match = regex.exec(`${url.origin}${url.pathname}`);
        if (!match || fixedQuery.some(([name, value]) => url.searchParams.get(name) !== value)) continue;
        const params: Record<string, string> = {};
        names.forEach((name, i) => {
          let value = match[i + 1]!;
          try {
            value = decodeURIComponent(value);
          } catch {
            // (kept as sent)
          }
          Object.defineProperty(params, name, { value, enumerable: true, writable: true, configurable: true });
        });
        return params;
      }
      return undefined;
    },
  };
}

/** A path template and the query pairs it fixes (`/responses?beta=true`). */
function splitQuery(path: string): [string, [string, string][]] {
  const at = path.indexOf("?");
  if (at < 0) return [path, []];
  return [path.slice(0, at), [...new URLSearchParams(path.slice(at + 1))]];
}

/** Literal path text as the URL parser writes it (the path percent-encode set, UTF-8 for the rest). */
function encodePath(text: string): string {
  let out = "";
  for (const char of text) {
    const code = char.codePointAt(0)!;
    out += code <= 0x20 || code >= 0x7f || `"#<>?\`{}`.includes(char) ? [...new TextEncoder().encode(char)].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("") : char;
  }
  return out;
}

/** Per segment: 2 for literal text, 1 for text with a parameter, 0 for a parameter alone (as the router prefers them). */
function pathRank(path: string): number[] {
  const [template, fixedQuery] = splitQuery(path);
  const segments = template.split("/").map((segment) => (!segment.includes("{") ? 2 : /^\{[^{}]+\}$/.test(segment) ? 0 : 1));
  return [...segments, fixedQuery.length > 0 ? 1 : 0];
}

function compareRanks(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return b[i]! - a[i]!;
  return b.length - a.length;
}
