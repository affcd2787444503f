/**
 * The router core: compiles the emitted route descriptors once (trie, parameter decoders, body and response
 * validators, mock payloads) and serves requests with web-standard `Request`/`Response` only.
 *
 * Request pipeline: route (404/405) → auth (401) → handler present? (501 unless mock) → parameters + body
 * (415/413, validation 422/400) → handler (500 on throw) → optional response stripping and validation →
 * Response/SSE. Every error the router answers itself takes the shape the spec declares for it (errors.ts).
 */
import { compileAuth, type RouteAuth } from "./auth.js";
import { compileBody, HttpError, type BodyDecoder } from "./body.js";
import { nullRecord } from "./json.js";
import { ErrorShapes, errorReply, specWideResponses, statusTitle, type ErrorFacts } from "./errors.js";
import { describeMockIssues, mockPayload, type MockPayload } from "./mock.js";
import { compileParam, parseCookies, parseRawCookies, readsRawCookies, readsRawPath, type ParamDecoder, type ParamLocation, type RawParams } from "./params.js";
import { fromRequest, headAnswer, headersRecord, isThenable, SERVE_INCOMING, toWebHeaders, toWebResponse, type Answer, type Incoming, type Reply, type ReplyHeaders, type ServeIncoming } from "./incoming.js";
import { compileQuerystring, type QuerystringDecoder } from "./querystring.js";
import { isBodylessStatus, streamedMedia, streamResponse } from "./responses.js";
import { RouteTrie, type RouteMatch } from "./routing.js";
import { schemaTypes, type SchemaDocument, type ValidationIssue } from "./schema.js";
import type { AnyHandlerResult, ErrorContext, GeneratedInfo, MediaSpec, MountOptions, ParamSpec, ResponseSpec, Router, RouterFeatures, RouterOptions, RouteSpec, SchemeCredentials, SequenceSpec } from "./types.js";
import { SchemaCompiler, type Check, type FastCheck, type GeneratedValidators, type Strip } from "./validate.js";

/** Default request body limit: 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES: number = 1024 * 1024;

/** Thrown (to `onError`) when `validateResponses` finds a handler result that does not match the spec. */
export class ResponseValidationError extends Error {
  readonly operation: string;
  readonly status: number;
  readonly issues: ValidationIssue[];

  constructor(operation: string, status: number, issues: ValidationIssue[]) {
    super(`Response of ${operation} (status ${status}) does not match the spec: ${issues.map((i) => `${i.loc.join(".")}: ${i.msg}`).join("; ")}`);
    this.name = "ResponseValidationError";
    this.operation = operation;
    this.status = status;
    this.issues = issues;
  }
}

type AnyHandler = (ctx: Record<string, unknown>) => unknown;

/** A declared response, ready to validate against. */
interface CompiledResponse {
  /** media key → check (response direction). */
  media: Map<string, Check>;
  /** media key → stripper (with `stripResponses`). */
  strip: Map<string, Strip> | undefined;
  /** The media type used when the handler does not say (JSON first). */
  defaultMedia: string | undefined;
  hasContent: boolean;
  /** The streamed media types declared (SSE, then JSON Lines, then JSON Text Sequences), with their framing. */
  sequences: { key: string; sequence: SequenceSpec }[];
}

interface CompiledRoute {
  spec: RouteSpec;
  paramNames: string[];
  /**
   * The query the spec writes into the path (OpenAI's `/responses?beta=true`): the request must carry each pair.
   * Undefined for an ordinary path.
   */
  fixedQuery: [string, string][] | undefined;
  /**
   * Every route of this method and path, the ones with the most fixed query pairs first, when there is more than
   * this one (`/responses` and `/responses?beta=true`); the trie holds the first registered.
   */
  variants: CompiledRoute[] | undefined;
  decoders: Record<ParamLocation, ParamDecoder[]>;
  /** Whether any parameter decoder exists (else the raw parameter view is never built). */
  hasParams: boolean;
  /** Whether a path parameter's decoder reads the undecoded captures (else `pathRaw` is not built). */
  needsPathRaw: boolean;
  needsCookies: boolean;
  /** A cookie parameter has `style: cookie`: the header's cookies are also read undecoded. */
  needsRawCookies: boolean;
  body: BodyDecoder | undefined;
  /** How credentials are read, for routes with security. */
  auth: RouteAuth | undefined;
  responses: Map<string, CompiledResponse>;
  mock: MockPayload | undefined;
  /** Names of query parameters that take one value: a repeated one is an error, not a silent choice. */
  singleQuery: string[];
  /** An `in: querystring` parameter's decoder. */
  querystring: QuerystringDecoder | undefined;
  /** Error shapes chosen for this operation, by status (`-` suffix: validation errors). */
  errorShapes: Map<string, ReturnType<ErrorShapes["shapeFor"]>>;
}

/** `ctx.partHeaders` of a request without declared part headers. */
const NO_PART_HEADERS: Record<string, unknown> = Object.freeze(nullRecord());

/** Errors the router answers itself: status, `type` and message. */
const NOT_FOUND = [404, "not_found", "Not Found"] as const;
const INTERNAL = [500, "internal_error", "Internal Server Error"] as const;

/**
 * Builds the router. Everything schema-related is compiled here, never per request.
 *
 * @param document `{ components: { schemas } }` of the spec: the target of every `$ref`.
 * @param routes the emitted route descriptors.
 * @param handlers handler functions keyed by route `name`; a missing one answers 501 (or a mock).
 * @param generated what the generator found in the spec (super-linear patterns).
 * @param validators the request validators the generator emitted as code (`server-validators.js`); without them
 *   the compiled closures validate alone, with the same answers.
 * @param featureList the optional parts the spec needs (see `RouterFeatures`), as their modules export them
 *   (`multipartFeature`, `linearPatternsFeature`).
 */
export function createRouterRuntime<Auth = unknown, Credentials = Record<string, SchemeCredentials>>(
  document: SchemaDocument,
  routes: readonly RouteSpec[],
  handlers: Record<string, unknown>,
  options: RouterOptions<Auth, Credentials> = {},
  generated: GeneratedInfo = {},
  validators?: GeneratedValidators,
  featureList: readonly RouterFeatures[] = [],
): Router {
  const features: RouterFeatures = Object.assign({}, ...featureList);
  const compiler = new SchemaCompiler(document, {
    maxDepth: options.maxDepth,
    maxValidationSteps: options.maxValidationSteps,
    patterns: options.patterns,
    superLinearPatterns: generated.superLinearPatterns,
    linearPatterns: features.linearPatterns,
  });
  if (validators) compiler.useGenerated(generatedBySchema(validators(compiler.validatorEnv()), { routes, document }));
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const terminator = options.sseTerminator === undefined ? "[DONE]" : options.sseTerminator;
  const shapes = new ErrorShapes(compiler);

  // The routes under each base path: `options.basePath` for all of them, else each under its server's paths.
  const mounts = new Map<string, RouteTrie<CompiledRoute>>();
  const override = options.basePath === undefined ? undefined : [normalizeBasePath(options.basePath)];
  const byPath = new Map<string, CompiledRoute>();
  for (const spec of routes) {
    const method = spec.method.toUpperCase();
    const compiled = compileRoute(spec, compiler, options, document, features);
    const at = spec.path.indexOf("?");
    const path = at < 0 ? spec.path : spec.path.slice(0, at);
    if (at >= 0) compiled.fixedQuery = [...new URLSearchParams(spec.path.slice(at + 1))];
    const bases = override ?? (generated.serverPaths?.[spec.server ?? 0] ?? [""]).map(normalizeBasePath);
    const key = `${method} ${path} ${bases.join(" ")}`;
    const first = byPath.get(key);
    if (first && (first.fixedQuery || compiled.fixedQuery)) {
      // Same method and path, told apart by the fixed query: captures come in template order for all of them.
      compiled.paramNames = [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
      first.variants = [...(first.variants ?? [first]), compiled].sort((a, b) => (b.fixedQuery?.length ?? 0) - (a.fixedQuery?.length ?? 0));
      continue;
    }
    for (const base of bases) {
      let trie = mounts.get(base);
      if (!trie) mounts.set(base, (trie = new RouteTrie<CompiledRoute>()));
      compiled.paramNames = trie.add(method, path, compiled).paramNames;
    }
    byPath.set(key, compiled);
  }

  /** The base paths, longest first: a path under `/v1/beta` is looked up there before under `/v1`. */
  const mountList = [...mounts].sort(([a], [b]) => b.length - a.length);
  /**
   * What a 404 for a path outside every base path says was expected: `/v1`, or `/v1 or /v2`; below the path an app
   * mounts the router at, as the client sees them (`/api/v1`).
   */
  const basePaths = [...mounts.keys()].sort();
  const outsideHint = (mountPrefix = "") => basePaths.map((base) => mountPrefix + base).join(" or ");

  /** The route of `method` at `pathname` under one of the base paths, without the base path. */
  const findRoute = (method: string, pathname: string): RouteMatch<CompiledRoute> | undefined => {
    for (const [base, trie] of mountList) {
      if (!isUnder(pathname, base)) continue;
      const match = trie.match(method, base === "" ? pathname : pathname.slice(base.length) || "/");
      if (match) return match;
    }
    return undefined;
  };

  /** The route among same-path variants whose fixed query the request carries (most pairs first); else none. */
  const pickVariant = (route: CompiledRoute, incoming: Incoming): CompiledRoute | undefined => {
    if (!route.variants && !route.fixedQuery) return route;
    for (const candidate of route.variants ?? [route]) {
      if (!candidate.fixedQuery || candidate.fixedQuery.every(([name, value]) => incoming.searchParams.getAll(name).includes(value))) return candidate;
    }
    return undefined;
  };

  /** For errors no operation owns (404, 405, a malformed request): what the spec at large declares, by status. */
  const specWide = new Map<number, Record<string, ResponseSpec> | undefined>();
  const specWideFor = (status: number) => {
    if (!specWide.has(status)) specWide.set(status, specWideResponses(routes.map((route) => route.responses), status));
    return specWide.get(status);
  };

  /**
   * An error answered by the router itself, in the shape the operation (`route`) or the spec at large declares
   * for the status (see errors.ts); `errorBody` may reshape it.
   */
  const fail = (
    route: CompiledRoute | undefined,
    incoming: Incoming,
    status: number,
    type: string,
    detail: string,
    headers?: Record<string, string>,
    issues?: ValidationIssue[],
  ): Reply => {
    const validation = issues !== undefined;
    let shape;
    if (route) {
      const key = validation ? `${status}-` : String(status);
      shape = route.errorShapes.get(key);
      if (!shape) route.errorShapes.set(key, (shape = shapes.shapeFor(route.spec.responses, status, validation)));
    } else shape = shapes.shapeFor(specWideFor(status), status, validation);
    const facts: ErrorFacts = { status, type, title: statusTitle(status), detail, instance: incoming.requestPath ?? incoming.pathname };
    if (issues) facts.issues = issues;
    if (route) facts.operation = route.spec.name;
    return errorReply(shape, facts, options.errorBody, headers);
  };

  /**
   * 401, in FastAPI's words: "Not authenticated" without credentials, "Invalid authentication credentials" for bad
   * ones; with the challenges of the route's HTTP schemes (none for API keys only).
   */
  const unauthorized = (route: CompiledRoute, incoming: Incoming, invalid: boolean, challenge: string | undefined): Reply =>
    fail(route, incoming, 401, "unauthorized", invalid ? "Invalid authentication credentials" : "Not authenticated", challenge === undefined ? undefined : { "www-authenticate": challenge });

  /**
   * Tells `onError`; the context's Request is built here (the node adapter builds it only when needed). Without
   * `onError` the failure is logged once, with the request's method and path but never its body.
   */
  const reportError = (error: unknown, operation: string | undefined, incoming: Incoming, withBody: boolean) => {
    if (!options.onError) {
      logFailure(error, operation, incoming);
      return;
    }
    try {
      const context: ErrorContext = { operation, request: incoming.request(withBody) };
      options.onError(error, context);
    } catch {
      // onError must never turn one failure into two.
    }
  };

  /** The answer to an error thrown while serving (a handler's included), before or after a route was found. */
  const failed = (route: CompiledRoute | undefined, incoming: Incoming, error: unknown): Answer => {
    // An HttpError is an answer (FastAPI's HTTPException): in the declared shape, and not a failure to report.
    if (error instanceof HttpError) return fail(route, incoming, error.status, error.type, error.message, lowerCaseKeys(error.headers));
    reportError(error, route?.spec.name, incoming, !route?.body);
    return fail(route, incoming, ...INTERNAL);
  };

  /**
   * The whole pipeline for one request; never throws (failures become error replies). It stays synchronous
   * until something really is asynchronous (a promise from authenticate or the handler, reading the body):
   * most GETs are answered without a single promise.
   *
   * With `unmatched: "pass"` (a router mounted inside another app) a request that no route's path matches (outside
   * `basePath`, or a path the spec does not have) is not answered: the result is undefined and nothing of the
   * request was read, so the app can serve it. A path of the spec with another method still gets its 405.
   */
  const serveIncoming = ((incoming: Incoming, unmatched?: "pass"): Answer | Promise<Answer> | undefined => {
    let route: CompiledRoute | undefined;
    const pass = unmatched === "pass";
    try {
      // A request the adapter could not read as one (an invalid Host header, say) is never routed; mounted, it is
      // refused only on a path of the spec (the app's own paths are the app's business).
      if (incoming.malformed !== undefined && !pass) return fail(undefined, incoming, 400, "bad_request", incoming.malformed);
      const notFound = () => (pass ? undefined : fail(undefined, incoming, ...NOT_FOUND));
      const { pathname } = incoming;
      const method = incoming.method.toUpperCase();
      let match = findRoute(method, pathname);
      const isHead = method === "HEAD" && !match;
      if (isHead) match = findRoute("GET", pathname); // HEAD is served by the GET route, minus the body
      if (!match) {
        const allowed: string[] = [];
        let under = false;
        for (const [base, trie] of mountList) {
          if (!isUnder(pathname, base)) continue;
          under = true;
          for (const allow of trie.allowedMethods(pathname.slice(base.length) || "/")) if (!allowed.includes(allow)) allowed.push(allow);
        }
        if (!under && basePaths.length > 0) return pass ? undefined : fail(undefined, incoming, 404, NOT_FOUND[1], `${NOT_FOUND[2]}: expected paths under ${outsideHint(incoming.mountPrefix)}`);
        if (allowed.length === 0) return notFound();
        if (incoming.malformed !== undefined) return fail(undefined, incoming, 400, "bad_request", incoming.malformed);
        if (allowed.includes("GET") && !allowed.includes("HEAD")) allowed.push("HEAD");
        return fail(undefined, incoming, 405, "method_not_allowed", "Method Not Allowed", { allow: allowed.join(", ") });
      }
      const found = (route = pickVariant(match.value, incoming));
      if (!found) return notFound();
      if (incoming.malformed !== undefined) return fail(undefined, incoming, 400, "bad_request", incoming.malformed);
      const answer = serve(found, match.captures, incoming);
      // A promise from `serve` settles with an answer: each step that waits turns its own failures into one.
      if (isThenable(answer)) return isHead ? answer.then(headAnswer) : answer;
      return isHead ? headAnswer(answer) : answer;
    } catch (error) {
      return failed(route, incoming, error);
    }
  }) as ServeIncoming;

  const fetch = async (request: Request): Promise<Response> => {
    const answer = await serveIncoming(fromRequest(request));
    return answer instanceof Response ? answer : toWebResponse(answer);
  };

  const handle = async (request: Request, options?: MountOptions): Promise<Response | undefined> => {
    const incoming = fromRequest(request, options?.prefix);
    const answer = incoming && (await serveIncoming(incoming, "pass"));
    return answer === undefined || answer instanceof Response ? answer : toWebResponse(answer);
  };

  /**
   * `next(value)` once `waiting` settles with it. A rejection, or what `next` throws, becomes the answer to that
   * failure: after an await, `serveIncoming`'s catch no longer reaches.
   */
  const afterWait = <T>(waiting: PromiseLike<T>, route: CompiledRoute, incoming: Incoming, next: (value: T) => Answer | Promise<Answer>): Promise<Answer> =>
    Promise.resolve(waiting).then(
      (value) => {
        try {
          return next(value);
        } catch (error) {
          return failed(route, incoming, error);
        }
      },
      (error: unknown) => failed(route, incoming, error),
    );

  /** 1. Authentication first: unauthenticated callers learn nothing about validation or implementation. */
  const serve = (route: CompiledRoute, captures: string[], incoming: Incoming): Answer | Promise<Answer> => {
    const { spec, auth } = route;
    if (auth) {
      const credentials = auth.read(incoming);
      if (credentials === undefined) {
        // Optional credentials (an anonymous alternative) absent: the request goes on without them.
        if (!auth.required || options.insecureNoAuth) return decode(route, captures, incoming, undefined);
        return unauthorized(route, incoming, false, auth.challenge);
      }
      if (options.authenticate) {
        // The Request handed to authenticate, handlers and onError carries the body stream only when the
        // router does not read the body itself.
        const principal = options.authenticate(credentials as Credentials, incoming.request(!route.body), { operation: spec.name });
        if (isThenable(principal)) return afterWait(principal, route, incoming, (found) => admit(route, captures, incoming, found));
        return admit(route, captures, incoming, principal);
      }
      // Secure by default. Mock mode accepts any credentials of the operation's schemes, so SDKs that always send one work.
      if (auth.required && !options.insecureNoAuth && !options.mock) return unauthorized(route, incoming, false, auth.challenge);
    }
    return decode(route, captures, incoming, undefined);
  };

  /**
   * The principal `authenticate` found, or a 401 for none: null, undefined, and every other falsy answer (`false` from
   * `token === SECRET`, `0`, `""`, `NaN`) — only a principal lets a request in.
   */
  const admit = (route: CompiledRoute, captures: string[], incoming: Incoming, found: unknown): Answer | Promise<Answer> =>
    found ? decode(route, captures, incoming, found) : unauthorized(route, incoming, true, route.auth!.invalidChallenge);

  /** 2. Unimplemented operations answer before the body is read. 3. Parameters and body, all errors reported together (FastAPI style). */
  const decode = (route: CompiledRoute, captures: string[], incoming: Incoming, auth: unknown): Answer | Promise<Answer> => {
    const { spec } = route;
    // Own properties only: an operation named "constructor" must not find Object.prototype.constructor.
    const handler = (Object.hasOwn(handlers, spec.name) ? handlers[spec.name] : undefined) as AnyHandler | undefined;
    if (typeof handler !== "function" && !(options.mock && route.mock)) {
      return fail(route, incoming, 501, "not_implemented", `Operation ${spec.name} is not implemented`);
    }
    const issues: ValidationIssue[] = [];
    // Records that inherit nothing: a parameter named "__proto__" is a key like any other.
    const path = nullRecord<string>();
    // Path values start as the decoded strings (so a template param without a ParamSpec still arrives);
    // declared ones are then replaced by their coerced values.
    const values: Record<ParamLocation, Record<string, unknown>> = { path: nullRecord(), query: nullRecord(), header: nullRecord(), cookie: nullRecord() };
    for (let i = 0; i < route.paramNames.length; i++) {
      const raw = captures[i];
      try {
        values.path[route.paramNames[i]] = path[route.paramNames[i]] = raw.includes("%") ? decodeURIComponent(raw) : raw;
      } catch {
        issues.push({ loc: ["path", route.paramNames[i]], msg: "Invalid percent-encoding", type: "value_error" });
      }
    }
    if (route.singleQuery.length > 0) checkSingleQuery(route.singleQuery, incoming.searchParams, issues);
    const querystring = route.querystring ? route.querystring(incoming.search, issues) : undefined;
    if (route.hasParams) {
      const raw: RawParams = {
        path,
        // The undecoded captures, for label/matrix styles and exploded objects whose separators may be encoded.
        pathRaw: route.needsPathRaw ? nullProtoEntries(route.paramNames, captures) : undefined,
        // Parsed only if a query parameter is declared.
        query: route.decoders.query.length > 0 ? incoming.searchParams : NO_QUERY,
        headers: incoming,
        cookies: route.needsCookies ? parseCookies(incoming.header("cookie")) : undefined,
        rawCookies: route.needsRawCookies ? parseRawCookies(incoming.header("cookie")) : undefined,
      };
      for (const location of PARAM_LOCATIONS) {
        const decoders = route.decoders[location];
        for (let i = 0; i < decoders.length; i++) decoders[i](raw, values[location], issues);
      }
    }
    if (route.body) {
      return afterWait(route.body(incoming, maxBodyBytes, issues), route, incoming, (parsed) =>
        run(route, handler, incoming, auth, values, querystring, issues, parsed.value, parsed.contentType, parsed.partHeaders),
      );
    }
    return run(route, handler, incoming, auth, values, querystring, issues, undefined, undefined);
  };

  /** 4. Validation errors, or a mock answer for operations without a handler. 5. The handler. */
  const run = (
    route: CompiledRoute,
    handler: AnyHandler | undefined,
    incoming: Incoming,
    auth: unknown,
    values: Record<ParamLocation, Record<string, unknown>>,
    querystring: unknown,
    issues: ValidationIssue[],
    body: unknown,
    contentType: string | undefined,
    partHeaders: Record<string, unknown> | readonly unknown[] = NO_PART_HEADERS,
  ): Answer | Promise<Answer> => {
    const { spec } = route;
    if (issues.length > 0) return fail(route, incoming, spec.validationErrorStatus, "validation_error", "Request validation failed", undefined, issues);
    if (typeof handler !== "function") return mockResponse(route.mock!, incoming, terminator);
    const requestWithBody = !route.body;
    const ctx = {
      path: values.path,
      query: values.query,
      querystring,
      headers: values.header,
      cookies: values.cookie,
      body,
      contentType,
      partHeaders,
      auth,
      // With the node adapter a Request that is built only when the handler uses it. (A plain property, not
      // a getter: V8 keeps a getter's closure alive - and with it the whole request - until a full GC, which
      // made every request survive into the old generation.)
      request: incoming.request(requestWithBody),
      operation: spec.name,
    };
    let result: unknown;
    try {
      result = handler(ctx);
    } catch (error) {
      return failed(route, incoming, error);
    }
    if (isThenable(result)) {
      return afterWait(result, route, incoming, (settled) => answerFor(route, settled, incoming));
    }
    return answerFor(route, result, incoming);
  };

  const answerFor = (route: CompiledRoute, result: unknown, incoming: Incoming): Answer => {
    const operation = route.spec.name;
    const requestWithBody = !route.body;
    if (result instanceof Response) return result;
    if (result === null || typeof result !== "object" || typeof (result as AnyHandlerResult).status !== "number") {
      reportError(new TypeError(`Handler ${operation} returned ${describe(result)} instead of { status, body }`), operation, incoming, requestWithBody);
      return fail(route, incoming, ...INTERNAL);
    }
    const { status, stream, headers } = result as AnyHandlerResult;
    let { body } = result as AnyHandlerResult;
    const declared = route.responses.get(String(status)) ?? route.responses.get(`${String(status)[0]}XX`) ?? route.responses.get("default");

    if (stream !== undefined) {
      const wanted = (result as AnyHandlerResult).contentType;
      const chosen = chooseSequence(declared, wanted, incoming.header("accept"));
      if (chosen === undefined) {
        return responseMismatch(route, status, [{ loc: ["response"], msg: `No ${wanted} stream declared for status ${status}`, type: "undeclared_stream" }], incoming);
      }
      let prepareEvent: ((event: unknown) => unknown) | undefined;
      const strip = declared?.strip?.get(chosen.key);
      if (options.validateResponses) {
        const check = declared?.media.get(chosen.key);
        if (!check) return responseMismatch(route, status, [{ loc: ["response"], msg: `No ${chosen.key} response declared for this status`, type: "undeclared_stream" }], incoming);
        prepareEvent = (event) => {
          const sent = strip ? strip(event) : event;
          const issues: ValidationIssue[] = [];
          if (!check(sent, ["response"], issues)) throw new ResponseValidationError(operation, status, issues);
          return sent;
        };
      } else if (strip) prepareEvent = strip;
      return streamResponse(stream, {
        status,
        headers,
        sequence: chosen.sequence,
        contentType: chosen.key,
        terminator,
        signal: incoming.signal,
        prepareEvent,
        onError: (error) => reportError(error, operation, incoming, requestWithBody),
      });
    }

    const mediaType = (result as AnyHandlerResult).contentType ?? declared?.defaultMedia ?? (body === undefined ? undefined : "application/json");
    // What `new Response` would refuse (a Reply is written without one): 500 + onError.
    if (!(status >= 200 && status <= 599)) throw new RangeError(`Handler ${operation} returned status ${status}; a response status must be in the range of 200 to 599`);
    const strip = mediaType === undefined || body === undefined || isBinary(body) ? undefined : declared?.strip?.get(mediaType);
    if (strip) body = strip(body);
    if (options.validateResponses) {
      const issues = validateResult(declared, status, mediaType, body);
      if (issues.length > 0) return responseMismatch(route, status, issues, incoming);
    }
    return encodeBody(status, body, mediaType, headers);
  };

  const validateResult = (declared: CompiledResponse | undefined, status: number, mediaType: string | undefined, body: unknown): ValidationIssue[] => {
    if (!declared) return [{ loc: ["response"], msg: `Status ${status} is not declared for this operation`, type: "undeclared_status" }];
    if (!declared.hasContent) {
      return body === undefined ? [] : [{ loc: ["response"], msg: `Status ${status} is declared without a body`, type: "unexpected_body" }];
    }
    const check = mediaType ? declared.media.get(mediaType) : undefined;
    if (!check) return [{ loc: ["response"], msg: `Media type ${mediaType} is not declared for status ${status}`, type: "undeclared_media_type" }];
    // Bytes are what `format: binary` describes: there is nothing to validate.
    if (isBinary(body)) return [];
    const issues: ValidationIssue[] = [];
    check(body, ["response"], issues);
    return issues;
  };

  const responseMismatch = (route: CompiledRoute, status: number, issues: ValidationIssue[], incoming: Incoming): Reply => {
    reportError(new ResponseValidationError(route.spec.name, status, issues), route.spec.name, incoming, !route.body);
    return fail(route, incoming, ...INTERNAL);
  };

  const router: Router & { [SERVE_INCOMING]: ServeIncoming } = { fetch, handle, [SERVE_INCOMING]: serveIncoming };
  return router;
}

const PARAM_LOCATIONS = ["path", "query", "header", "cookie"] as const;
/** The query of routes without query parameters (never read). */
const NO_QUERY = new URLSearchParams();

/** The generated validators by the schema object their path (into `{ routes, document }`) leads to. */
function generatedBySchema(entries: readonly [readonly (string | number)[], FastCheck][], root: object): Map<object, FastCheck> {
  const found = new Map<object, FastCheck>();
  for (const [path, check] of entries) {
    let node: unknown = root;
    for (const key of path) node = node !== null && typeof node === "object" && Object.hasOwn(node, key) ? (node as Record<string | number, unknown>)[key] : undefined;
    if (node !== null && typeof node === "object") found.set(node, check);
  }
  return found;
}

function compileRoute<Auth, Credentials>(spec: RouteSpec, compiler: SchemaCompiler, options: RouterOptions<Auth, Credentials>, document: SchemaDocument, features: RouterFeatures): CompiledRoute {
  const decoders: Record<ParamLocation, ParamDecoder[]> = { path: [], query: [], header: [], cookie: [] };
  for (const location of ["path", "query", "header", "cookie"] as const) {
    for (const param of spec.params[location] ?? []) {
      const decoder = compileParam(param, location, compiler);
      if (decoder) decoders[location].push(decoder);
    }
  }
  const responses = new Map<string, CompiledResponse>();
  for (const [key, response] of Object.entries(spec.responses)) {
    // Normalise "2xx" → "2XX" so lookups by `${digit}XX` work; "default" stays as is.
    responses.set(key === "default" ? key : key.toUpperCase(), compileResponse(response, compiler, Boolean(options.validateResponses), Boolean(options.stripResponses)));
  }
  return {
    spec,
    paramNames: [],
    fixedQuery: undefined,
    variants: undefined,
    decoders,
    querystring: spec.params.querystring ? compileQuerystring(spec.params.querystring, compiler) : undefined,
    hasParams: PARAM_LOCATIONS.some((location) => decoders[location].length > 0),
    needsCookies: decoders.cookie.length > 0,
    needsRawCookies: (spec.params.cookie ?? []).some(readsRawCookies),
    needsPathRaw: (spec.params.path ?? []).some((param) => readsRawPath(param, compiler)),
    body: spec.body ? compileBody(spec.body, compiler, options.multipartLimits, features.multipart) : undefined,
    auth: compileAuth(spec, document),
    responses,
    mock: options.mock ? mockFor(spec, compiler, options.mock) : undefined,
    singleQuery: (spec.params.query ?? []).filter((param) => takesOneValue(param, compiler)).map((param) => param.name),
    errorShapes: new Map(),
  };
}

function compileResponse(response: ResponseSpec, compiler: SchemaCompiler, validate: boolean, strip: boolean): CompiledResponse {
  const media = new Map<string, Check>();
  const strippers = strip ? new Map<string, Strip>() : undefined;
  const keys = Object.keys(response.content ?? {});
  const sequences = streamedMedia(response.content ?? {});
  for (const key of keys) {
    // A streamed media type's schema is one item's: each item is validated and stripped on its own.
    const schema = response.content![key].schema;
    media.set(key, validate ? compiler.compile(schema, "response") : () => true);
    // Only JSON bodies and streamed items have properties to strip; text and bytes go out as they are.
    if (strippers && (/json/i.test(key) || sequences.some((entry) => entry.key === key))) strippers.set(key, compiler.stripper(schema));
  }
  const nonStream = keys.filter((k) => !sequences.some((entry) => entry.key === k));
  const defaultMedia = nonStream.find((k) => k === "application/json") ?? nonStream.find((k) => /json/i.test(k)) ?? nonStream[0];
  return { media, strip: strippers, defaultMedia, hasContent: keys.length > 0, sequences };
}

/**
 * The streamed media type a handler's stream is sent as: the one it names (`contentType`, which must be declared),
 * else the first declared one the request's `Accept` lists, else the first declared. A stream for a status that
 * declares none goes out as server-sent events, as it always has (`validateResponses` reports it).
 */
function chooseSequence(declared: CompiledResponse | undefined, contentType: string | undefined, accept: string | null): { key: string; sequence: SequenceSpec } | undefined {
  const sequences = declared?.sequences ?? [];
  if (contentType !== undefined) {
    const wanted = contentType.split(";", 1)[0]!.trim().toLowerCase();
    return sequences.find((entry) => entry.key.split(";", 1)[0]!.trim().toLowerCase() === wanted);
  }
  if (sequences.length === 0) return { key: "text/event-stream", sequence: { format: "sse" } };
  if (accept) {
    const accepted = accept.split(",").map((part) => part.split(";", 1)[0]!.trim().toLowerCase());
    for (const type of accepted) {
      const match = sequences.find((entry) => entry.key.split(";", 1)[0]!.trim().toLowerCase() === type);
      if (match) return match;
    }
  }
  return sequences[0];
}

/**
 * Whether a query parameter takes a single value: a scalar with the `form` style. A repeated one
 * (`?order=asc&order=evil`) is then refused, as Fastify does, instead of one value being picked silently.
 */
function takesOneValue(param: ParamSpec, compiler: SchemaCompiler): boolean {
  if (param.contentType !== undefined) return true;
  if ((param.style ?? "form") !== "form") return false;
  const types = schemaTypes(param.schema ?? true, compiler.document);
  return !types.has("array") && !types.has("any") && !(types.has("object") && param.explode !== false);
}

function checkSingleQuery(names: readonly string[], query: URLSearchParams, issues: ValidationIssue[]): void {
  if (query.size < 2) return; // nothing can repeat
  for (const name of names) {
    const count = query.getAll(name).length;
    if (count > 1) issues.push({ loc: ["query", name], msg: `Expected one value for '${name}', got ${count}`, type: "multiple_values" });
  }
}

/** `{ [names[i]]: values[i] }`, inheriting nothing. */
/** A base path as the router compares it: "" for the root, else with a leading and without a trailing slash. */
function normalizeBasePath(base: string): string {
  const trimmed = base.replace(/\/+$/, "");
  return trimmed === "" || trimmed.startsWith("/") ? trimmed : `/${trimmed}`;
}

/** Whether a request path is under a base path (`/v1` and `/v1/…` are under `/v1`; every path is under ""). */
function isUnder(pathname: string, base: string): boolean {
  return base === "" || pathname === base || (pathname.startsWith(base) && pathname.charCodeAt(base.length) === 47 /* / */);
}

function nullProtoEntries(names: readonly string[], values: readonly string[]): Record<string, string> {
  const out = nullRecord<string>();
  for (let i = 0; i < names.length; i++) out[names[i]!] = values[i]!;
  return out;
}

/** The log line of a failure nobody listens to: where it happened (quoted: the path is the client's), then the error. */
function logFailure(error: unknown, operation: string | undefined, incoming: Incoming): void {
  try {
    console.error(`specforge router: ${incoming.method.replace(/[^A-Za-z-]/g, "?")} ${JSON.stringify(incoming.requestPath ?? incoming.pathname)}${operation ? ` (${operation})` : ""} failed (pass onError to handle this yourself):`, error);
  } catch {
    // A broken console must not take the answer down with it.
  }
}

/** The route's mock answer; its issues, if any, go to `mock.onIssue`. */
function mockFor(spec: RouteSpec, compiler: SchemaCompiler, mock: NonNullable<RouterOptions["mock"]>): MockPayload {
  const payload = mockPayload(spec.responses, compiler);
  if (payload.issues.length > 0 && typeof mock === "object") mock.onIssue?.(spec.name, payload.issues);
  return payload;
}

function mockResponse(mock: MockPayload, request: Incoming, terminator: string | null): Answer {
  const stream = mock.stream;
  const accepted = (request.header("accept") ?? "").split(",").map((part) => part.split(";", 1)[0]!.trim().toLowerCase());
  const essence = stream?.key.split(";", 1)[0]!.trim().toLowerCase();
  const wantsStream = stream !== undefined && (mock.streamOnly || (accepted.includes(essence!) && !accepted.includes("application/json")));
  if (wantsStream) {
    const items = structuredClone(stream.items);
    return streamResponse(
      (async function* () {
        yield* items;
      })(),
      { status: mock.status, headers: issueHeader(mock), sequence: stream.sequence, contentType: stream.key, terminator, signal: request.signal, onError: () => undefined },
    );
  }
  return encodeBody(mock.status, mock.body === undefined ? undefined : structuredClone(mock.body), mock.contentType, issueHeader(mock));
}

/** An answer the mock could not make valid says why (`x-specforge-mock-issue`), so that nobody takes it for the spec's. */
function issueHeader(mock: MockPayload): Record<string, string> | undefined {
  return mock.issues.length > 0 ? { "x-specforge-mock-issue": describeMockIssues(mock.issues) } : undefined;
}

/**
 * Serialises a handler body: JSON for JSON media types, strings/bytes as they are for others (a `Reply`);
 * Blobs, ArrayBuffers and streams as a `Response`.
 */
function encodeBody(status: number, body: unknown, mediaType: string | undefined, headers?: AnyHandlerResult["headers"]): Answer {
  // The handler's headers go through `Headers`, which validates and normalises them.
  const merged: ReplyHeaders = headers === undefined ? {} : headersRecord(new Headers(headers));
  if (isBodylessStatus(status) || body === undefined) return { status, headers: merged, body: null };
  const { json, contentType } = mediaInfo(mediaType ?? "application/json");
  if (merged["content-type"] === undefined) merged["content-type"] = contentType;
  // The writer sets Content-Length from the body. (`delete` only when there is one: it slows the object down.)
  if (merged["content-length"] !== undefined) delete merged["content-length"];
  let text: string | Uint8Array;
  if (json) text = JSON.stringify(body) ?? "";
  else if (typeof body === "string" || body instanceof Uint8Array) text = body;
  else if (body instanceof ArrayBuffer || body instanceof Blob || body instanceof ReadableStream) {
    return new Response(body as BodyInit, { status, headers: toWebHeaders(merged) });
  } else text = typeof body === "object" ? (JSON.stringify(body) ?? "") : String(body);
  return { status, headers: merged, body: text };
}

const mediaInfos = new Map<string, { json: boolean; contentType: string }>();

/** Whether a response media type is JSON, and the Content-Type to send for it (text gets a charset). Memoised. */
function mediaInfo(type: string): { json: boolean; contentType: string } {
  let info = mediaInfos.get(type);
  if (info === undefined) {
    const json = /json/i.test(type);
    info = { json, contentType: json ? type : /^text\//i.test(type) ? `${type}; charset=utf-8` : type };
    if (mediaInfos.size < 256) mediaInfos.set(type, info); // handlers may name any type: keep the memo bounded
  }
  return info;
}


function lowerCaseKeys(headers: Record<string, string> | undefined): Record<string, string> | undefined {
  return headers && Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function isBinary(value: unknown): boolean {
  return value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof ReadableStream || (typeof Blob !== "undefined" && value instanceof Blob);
}

function describe(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "an array" : typeof value;
}
