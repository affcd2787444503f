/**
 * The router's own error answers, in the shape the spec declares.
 *
 * A client generated from the spec types an error by the operation's response for that status, so an error the
 * router makes itself (401, 404, 405, 413, 415, validation, 501, 500) must carry that body: FastAPI's `{detail}`
 * where the spec says `ErrorResponse {detail}`, OpenAI's `{error: {message, type, param, code}}` where it says
 * that. For each declared response the router tries the usual error shapes, keeps the first whose body validates
 * against the declared schema and uses only properties it declares, and falls back to RFC 9457
 * `application/problem+json` when none does or nothing is declared. The choice is made once per (route, status),
 * on first use; an error answer then only builds its body.
 */
import type { Reply } from "./incoming.js";
import { resolvePointer, type Schema, type SchemaDocument, type SchemaObject, type ValidationIssue } from "./schema.js";
import type { ErrorBody, ResponseSpec, RouterError } from "./types.js";
import type { SchemaCompiler } from "./validate.js";

/** Reason phrases (RFC 9110) of the statuses the router answers itself, and of a handler's `HttpError`s. */
const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  402: "Payment Required",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  406: "Not Acceptable",
  408: "Request Timeout",
  409: "Conflict",
  410: "Gone",
  411: "Length Required",
  412: "Precondition Failed",
  413: "Content Too Large",
  414: "URI Too Long",
  415: "Unsupported Media Type",
  416: "Range Not Satisfiable",
  422: "Unprocessable Content",
  428: "Precondition Required",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** The reason phrase of `status` ("Error" for one without a registered phrase). */
export function statusTitle(status: number): string {
  return TITLES[status] ?? (status >= 500 ? "Server Error" : "Error");
}

/** What an error body is made from (a `RouterError` without the body). */
export interface ErrorFacts {
  status: number;
  type: string;
  title: string;
  detail: string;
  issues?: ValidationIssue[];
  operation?: string;
  instance: string;
}

/** How error bodies of one (route, status, kind) are built. */
interface ErrorShape {
  /** Undefined: the declared response has no body, so none is sent. */
  contentType: string | undefined;
  build(facts: ErrorFacts): unknown;
}

interface Candidate {
  build(facts: ErrorFacts): unknown;
  /** Whether this shape fits validation errors, other errors, or both. */
  forValidation: boolean;
  forOthers: boolean;
}

/** The parameter (or body field) a validation error is about, as OpenAI's `param` names it. */
function paramOf(facts: ErrorFacts): string | null {
  const loc = facts.issues?.[0]?.loc;
  if (!loc || loc.length < 2) return null;
  return loc.slice(1).join(".");
}

function issuesText(facts: ErrorFacts): string {
  if (!facts.issues || facts.issues.length === 0) return facts.detail;
  return `${facts.detail}: ${facts.issues.map((issue) => `${issue.loc.join(".")}: ${issue.msg}`).join("; ")}`;
}

/** OpenAI's and Stripe's error `type` for a status. */
function envelopeType(status: number, serverError: string): string {
  return status >= 500 ? serverError : "invalid_request_error";
}

/** RFC 9457 problem details; validation problems go in the `errors` extension member. */
function problem(facts: ErrorFacts): Record<string, unknown> {
  const body: Record<string, unknown> = { type: "about:blank", title: facts.title, status: facts.status, detail: facts.detail, instance: facts.instance };
  if (facts.issues) body.errors = facts.issues;
  return body;
}

/** The error shapes APIs use, most specific first. Each is tried against the declared schema. */
const CANDIDATES: Candidate[] = [
  // FastAPI / Starlette
  { forValidation: true, forOthers: false, build: (f) => ({ detail: f.issues }) },
  { forValidation: true, forOthers: true, build: (f) => ({ detail: issuesText(f) }) },
  // OpenAI (nullable param and code), then Stripe (`api_error`, no nulls), then the bare envelope
  {
    forValidation: true,
    forOthers: true,
    build: (f) => ({ error: { message: issuesText(f), type: envelopeType(f.status, "server_error"), param: paramOf(f), code: f.type } }),
  },
  {
    forValidation: true,
    forOthers: true,
    build: (f) => {
      const param = paramOf(f);
      return { error: { message: issuesText(f), type: envelopeType(f.status, "api_error"), code: f.type, ...(param === null ? {} : { param }) } };
    },
  },
  { forValidation: true, forOthers: true, build: (f) => ({ error: { message: issuesText(f), type: f.type } }) },
  { forValidation: true, forOthers: true, build: (f) => ({ error: issuesText(f) }) },
  // `{message}` (GitHub, many hand-written APIs), with the problems listed, with a code
  { forValidation: true, forOthers: false, build: (f) => ({ message: f.detail, errors: f.issues }) },
  { forValidation: true, forOthers: true, build: (f) => ({ message: issuesText(f) }) },
  { forValidation: true, forOthers: true, build: (f) => ({ code: f.status, message: issuesText(f) }) },
  { forValidation: true, forOthers: true, build: (f) => ({ code: f.type, message: issuesText(f) }) },
];

const PROBLEM_TYPE = "application/problem+json";
const PROBLEM_SHAPE: ErrorShape = { contentType: PROBLEM_TYPE, build: problem };
const NO_BODY: ErrorShape = { contentType: undefined, build: () => undefined };

/** Facts to try the candidates on: both kinds of `loc` item, so a `(string | integer)[]` schema is exercised. */
function sampleFacts(status: number, validation: boolean): ErrorFacts {
  return {
    status,
    type: validation ? "validation_error" : "not_found",
    title: statusTitle(status),
    detail: validation ? "Request validation failed" : "Not Found",
    issues: validation ? [{ loc: ["body", "items", 0, "name"], msg: "Field required", type: "missing" }] : undefined,
    instance: "/",
  };
}

function isJsonMedia(type: string): boolean {
  const base = type.split(";", 1)[0]!.trim().toLowerCase();
  return base === "application/json" || base.endsWith("+json") || base.endsWith("/json");
}

/**
 * Chooses error shapes for the routes of one router. `shapeFor` is memoised by the caller per route and status;
 * identical declared responses (the usual `$ref`'d error response) share one decision.
 */
export class ErrorShapes {
  private readonly byDeclaration = new Map<string, ErrorShape>();
  private readonly compiler: SchemaCompiler;

  constructor(compiler: SchemaCompiler) {
    this.compiler = compiler;
  }

  /** The shape for an error of `status` on an operation that declares `responses`. */
  shapeFor(responses: Record<string, ResponseSpec> | undefined, status: number, validation: boolean): ErrorShape {
    const declared = responses ? declaredResponse(responses, status) : undefined;
    if (!declared) return PROBLEM_SHAPE;
    const key = `${status}|${validation}|${JSON.stringify(declared.content ?? null)}`;
    let shape = this.byDeclaration.get(key);
    if (!shape) {
      shape = this.choose(declared, status, validation);
      this.byDeclaration.set(key, shape);
    }
    return shape;
  }

  private choose(declared: ResponseSpec, status: number, validation: boolean): ErrorShape {
    const content = declared.content ?? {};
    const media = Object.keys(content);
    if (media.length === 0) return NO_BODY; // the spec says this status has no body
    const sample = sampleFacts(status, validation);
    const problemMedia = media.find((m) => m.split(";", 1)[0]!.trim().toLowerCase() === PROBLEM_TYPE);
    if (problemMedia && this.accepts(content[problemMedia]!.schema, problem(sample))) return { contentType: problemMedia, build: problem };
    const json = media.find((m) => m.split(";", 1)[0]!.trim().toLowerCase() === "application/json") ?? media.find(isJsonMedia);
    if (json) {
      const schema = content[json]!.schema;
      const check = this.compiler.compile(schema, "response");
      const declaredKeys = propertyNames(schema, this.compiler.document);
      for (const candidate of CANDIDATES) {
        if (!(validation ? candidate.forValidation : candidate.forOthers)) continue;
        const body = candidate.build(sample) as Record<string, unknown>;
        // Fits: validates, and says nothing the schema does not declare (a free-form schema fits everything
        // equally: problem details then say the most).
        if (check(body, [], null) && declaredKeys.size > 0 && Object.keys(body).every((key) => declaredKeys.has(key))) {
          return { contentType: json, build: candidate.build };
        }
      }
      return PROBLEM_SHAPE;
    }
    const text = media.find((m) => m.toLowerCase().startsWith("text/"));
    if (text && this.accepts(content[text]!.schema, sample.detail)) return { contentType: text, build: issuesText };
    return PROBLEM_SHAPE;
  }

  private accepts(schema: Schema | undefined, value: unknown): boolean {
    return this.compiler.compile(schema, "response")(value, [], null);
  }
}

/** The response the operation declares for `status`: the status itself, its range (`4XX`), else `default`. */
export function declaredResponse(responses: Record<string, ResponseSpec>, status: number): ResponseSpec | undefined {
  const exact = String(status);
  if (Object.hasOwn(responses, exact)) return responses[exact];
  const range = `${exact[0]}XX`;
  for (const key of Object.keys(responses)) if (key.toUpperCase() === range) return responses[key];
  return Object.hasOwn(responses, "default") ? responses.default : undefined;
}

/**
 * For errors no operation owns (404, 405, a malformed request): the response the spec at large declares for the
 * status — the most common one among operations that declare the status, else its range, else `default` (ties:
 * the first). Undefined when no operation declares any.
 */
export function specWideResponses(all: readonly Record<string, ResponseSpec>[], status: number): Record<string, ResponseSpec> | undefined {
  const exact = String(status);
  const range = `${exact[0]}XX`;
  for (const pick of [(r: Record<string, ResponseSpec>) => (Object.hasOwn(r, exact) ? r[exact] : undefined), (r: Record<string, ResponseSpec>) => Object.entries(r).find(([key]) => key.toUpperCase() === range)?.[1], (r: Record<string, ResponseSpec>) => (Object.hasOwn(r, "default") ? r.default : undefined)]) {
    const counts = new Map<string, { response: ResponseSpec; count: number }>();
    for (const responses of all) {
      const response = pick(responses);
      if (!response) continue;
      const key = JSON.stringify(response.content ?? null);
      const entry = counts.get(key);
      if (entry) entry.count++;
      else counts.set(key, { response, count: 1 });
    }
    let best: { response: ResponseSpec; count: number } | undefined;
    for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
    if (best) return { [exact]: best.response };
  }
  return undefined;
}

/** Top-level property names a schema declares, through `$ref`, `allOf`, `anyOf` and `oneOf`. */
function propertyNames(schema: Schema | undefined, document: SchemaDocument, names = new Set<string>(), seen = new Set<object>()): Set<string> {
  if (typeof schema !== "object" || schema === null || seen.has(schema)) return names;
  seen.add(schema);
  for (const name of Object.keys(schema.properties ?? {})) names.add(name);
  if (typeof schema.$ref === "string") propertyNames(resolvePointer(document, schema.$ref), document, names, seen);
  for (const member of [...(schema.allOf ?? []), ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) propertyNames(member as SchemaObject, document, names, seen);
  return names;
}

/**
 * The Reply for an error: the shape's body (or `errorBody`'s), JSON-encoded unless its media type is text.
 * `headers` are the router's own (lower-case names).
 */
export function errorReply(
  shape: ErrorShape,
  facts: ErrorFacts,
  hook: ((error: RouterError) => ErrorBody | undefined) | undefined,
  headers?: Record<string, string>,
): Reply {
  let body = shape.build(facts);
  let contentType = shape.contentType;
  if (hook) {
    try {
      const chosen = hook({ ...facts, body, contentType });
      if (chosen) {
        body = chosen.body;
        contentType = body === undefined ? undefined : (chosen.contentType ?? "application/json");
      }
    } catch {
      // A failing hook must not turn one error into a crash: the default body goes out.
    }
  }
  const out: Record<string, string> = headers ? { ...headers } : {};
  if (body === undefined || contentType === undefined) return { status: facts.status, headers: out, body: null };
  out["content-type"] = contentType;
  const text = typeof body === "string" && !isJsonMedia(contentType) ? body : (JSON.stringify(body) ?? "null");
  return { status: facts.status, headers: out, body: text };
}

