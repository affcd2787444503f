/**
 * One router target on 127.0.0.1, in its own process (forked by bench/router.mjs, which sends the load from
 * another process so that the load generator and the server never share an event loop).
 *
 *   node bench/runtime/server.mjs <specforge|node-http|fastify> <generated-js-dir> <deep-oneof-js-dir>
 *
 * Sends `{ port }` to the parent once listening. Every target does the same work per request: route, check the
 * bearer token, decode and validate parameters / the JSON body against the spec's schemas (filling defaults),
 * run the handler, answer JSON. `POST /search` (the deep-oneOf scenario) is a second spec's operation: specforge
 * serves it from the router generated from bench/runtime/deep-oneof.yaml, the others add one route.
 */
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { AJV_OPTIONS, CHAT_BODY, DEEP_ONEOF_BODY, JOB_ID, LARGE_CHAT_BODY, MODEL_ID, TOKEN, USER, ajvSchemas, chatAnswer, checkpointsAnswer, jobAnswer, searchAnswer } from "./workload.mjs";

const [target, generatedDir, deepDir] = process.argv.slice(2);

const authenticate = (token) => (token === TOKEN ? USER : null);

async function specforge() {
  const { createRouter, toNodeListener } = await import(pathToFileURL(join(generatedDir, "server.js")).href);
  const router = createRouter(
    {
      createChatCompletion: ({ body, auth }) => ({ status: 200, body: chatAnswer(body.model, auth.user) }),
      getTrainingJob: ({ path }) => ({ status: 200, body: jobAnswer(path.training_job_id) }),
      listModelCheckpoints: ({ path, query }) => ({ status: 200, body: checkpointsAnswer(path.model_id, query.limit, query.order) }),
    },
    // The router hands `authenticate` the credentials it read, keyed by the spec's security scheme.
    { authenticate: (credentials) => authenticate(credentials.HTTPBearer.token) },
  );
  const deep = await import(pathToFileURL(join(deepDir, "server.js")).href);
  const search = deep.toNodeListener(deep.createRouter({ search: ({ body }) => ({ status: 200, body: searchAnswer(body) }) }, { authenticate: (credentials) => authenticate(credentials.bearer.token) }));
  const v1 = toNodeListener(router);
  return createServer((req, res) => (req.url.startsWith("/v1/") ? v1(req, res) : search(req, res)));
}

/** The hand-written baseline: node:http, a switch for routing, ajv (Fastify's options) for validation. */
async function nodeHttp() {
  const { default: Ajv } = await import("ajv");
  const schemas = ajvSchemas();
  const ajv = new Ajv(AJV_OPTIONS);
  ajv.addSchema(schemas.shared);
  const validateChat = ajv.compile(schemas.chatBody);
  const validateJobParams = ajv.compile(schemas.jobParams);
  const validateCheckpointParams = ajv.compile(schemas.checkpointParams);
  const validateCheckpointQuery = ajv.compile(schemas.checkpointQuery);
  ajv.addSchema(schemas.deepShared);
  const validateSearch = ajv.compile(schemas.searchBody);
  const MAX_BODY = 1024 * 1024;

  const send = (res, status, body, headers = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  const invalid = (res, errors) => send(res, 422, { detail: errors.map((e) => ({ loc: e.instancePath, msg: e.message, type: e.keyword })) });
  const bearer = (req) => {
    const match = /^Bearer[ \t]+(\S.*)$/i.exec((req.headers.authorization ?? "").trim());
    return match ? authenticate(match[1].trim()) : null;
  };
  const readJson = (req) =>
    new Promise((resolve, reject) => {
      const chunks = [];
      let size = 0;
      req.on("data", (chunk) => {
        size += chunk.length;
        if (size > MAX_BODY) reject(Object.assign(new Error("too large"), { status: 413 }));
        else chunks.push(chunk);
      });
      req.on("end", () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString("utf8")));
        } catch {
          reject(Object.assign(new Error("bad json"), { status: 422 }));
        }
      });
      req.on("error", reject);
    });

  return createServer(async (req, res) => {
    try {
      const q = req.url.indexOf("?");
      const pathname = q < 0 ? req.url : req.url.slice(0, q);
      const segments = pathname.split("/");
      let route;
      if (pathname === "/v1/chat/completions" || pathname === "/v1/chat/completions/") route = "chat";
      else if (pathname === "/search") route = "search";
      else if (segments.length === 5 && segments[3] === "training-jobs" && pathname.startsWith("/v1/preview/training-jobs/")) route = "job";
      else if (segments.length === 6 && segments[3] === "models" && segments[5] === "checkpoints" && pathname.startsWith("/v1/preview/models/")) route = "checkpoints";
      if (!route) return send(res, 404, { error: { message: "Not Found", type: "not_found" } });
      const method = route === "chat" || route === "search" ? "POST" : "GET";
      if (req.method !== method) return send(res, 405, { error: { message: "Method Not Allowed", type: "method_not_allowed" } }, { allow: method });
      const auth = bearer(req);
      if (!auth) return send(res, 401, { error: { message: "Not authenticated", type: "unauthorized" } }, { "www-authenticate": "Bearer" });
      if (route === "chat") {
        if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) return send(res, 415, { error: { message: "Unsupported Content-Type", type: "unsupported_media_type" } });
        const body = await readJson(req);
        if (!validateChat(body)) return invalid(res, validateChat.errors);
        return send(res, 200, chatAnswer(body.model, auth.user));
      }
      if (route === "search") {
        if (!/^application\/json\b/i.test(req.headers["content-type"] ?? "")) return send(res, 415, { error: { message: "Unsupported Content-Type", type: "unsupported_media_type" } });
        const body = await readJson(req);
        if (!validateSearch(body)) return invalid(res, validateSearch.errors);
        return send(res, 200, searchAnswer(body));
      }
      const params = route === "job" ? { training_job_id: decodeURIComponent(segments[4]) } : { model_id: decodeURIComponent(segments[4]) };
      if (route === "job") {
        if (!validateJobParams(params)) return invalid(res, validateJobParams.errors);
        return send(res, 200, jobAnswer(params.training_job_id));
      }
      const query = Object.fromEntries(new URLSearchParams(q < 0 ? "" : req.url.slice(q + 1)));
      if (!validateCheckpointParams(params)) return invalid(res, validateCheckpointParams.errors);
      if (!validateCheckpointQuery(query)) return invalid(res, validateCheckpointQuery.errors);
      return send(res, 200, checkpointsAnswer(params.model_id, query.limit, query.order));
    } catch (error) {
      if (!res.headersSent) send(res, error.status ?? 500, { error: { message: error.message, type: "error" } });
    }
  });
}

/** Fastify with its built-in ajv validating the same schemas; bearer auth in a route-level onRequest hook. */
async function fastify() {
  const { default: Fastify } = await import("fastify");
  const schemas = ajvSchemas();
  const app = Fastify({ logger: false, ajv: { customOptions: AJV_OPTIONS } });
  app.addSchema(schemas.shared);
  app.addSchema(schemas.deepShared);
  const onRequest = async (request, reply) => {
    const match = /^Bearer[ \t]+(\S.*)$/i.exec((request.headers.authorization ?? "").trim());
    const auth = match ? authenticate(match[1].trim()) : null;
    if (!auth) return reply.code(401).header("www-authenticate", "Bearer").send({ error: { message: "Not authenticated", type: "unauthorized" } });
    request.auth = auth;
  };
  app.decorateRequest("auth", null);
  const chat = { onRequest, schema: { body: schemas.chatBody }, handler: async (request) => chatAnswer(request.body.model, request.auth.user) };
  app.post("/v1/chat/completions", chat);
  app.post("/v1/chat/completions/", chat);
  app.post("/search", { onRequest, schema: { body: schemas.searchBody }, handler: async (request) => searchAnswer(request.body) });
  app.get("/v1/preview/training-jobs/:training_job_id", {
    onRequest,
    schema: { params: schemas.jobParams },
    handler: async (request) => jobAnswer(request.params.training_job_id),
  });
  app.get("/v1/preview/models/:model_id/checkpoints", {
    onRequest,
    schema: { params: schemas.checkpointParams, querystring: schemas.checkpointQuery },
    handler: async (request) => checkpointsAnswer(request.params.model_id, request.query.limit, request.query.order),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  return app.server;
}

/**
 * The floor: node:http answering each scenario's bytes (computed once) after reading the request, with no
 * validation, no auth, no parsing. What node:http itself allows per scenario; no target doing the work can beat it.
 */
async function floor() {
  if (LARGE_CHAT_BODY.model !== CHAT_BODY.model) throw new Error("the floor answers both chat scenarios with one text");
  // The search answer echoes defaults the validators fill in: filled once here, by ajv, at start-up.
  const { default: Ajv } = await import("ajv");
  const schemas = ajvSchemas();
  const ajv = new Ajv(AJV_OPTIONS);
  ajv.addSchema(schemas.shared);
  ajv.addSchema(schemas.deepShared);
  const search = structuredClone(DEEP_ONEOF_BODY);
  if (!ajv.compile(schemas.searchBody)(search)) throw new Error("the search body is invalid");
  const answers = new Map([
    ["/v1/chat/completions", JSON.stringify(chatAnswer(CHAT_BODY.model, USER.user))],
    ["/search", JSON.stringify(searchAnswer(search))],
    [`/v1/preview/training-jobs/${JOB_ID}`, JSON.stringify(jobAnswer(JOB_ID))],
    [`/v1/preview/models/${MODEL_ID}/checkpoints?limit=3&order=desc`, JSON.stringify(checkpointsAnswer(MODEL_ID, 3, "desc"))],
  ]);
  const headers = (text) => ({ "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  return createServer((req, res) => {
    const text = answers.get(req.url) ?? "{}";
    req.on("data", () => {});
    req.on("end", () => {
      res.writeHead(200, headers(text));
      res.end(text);
    });
  });
}

const make = { specforge, "node-http": nodeHttp, fastify, floor }[target];
if (!make) throw new Error(`unknown target ${target}`);
const server = await make();
server.keepAliveTimeout = 60_000;
// Fastify listens through its own `listen` (so its hooks run as in production); the others are plain servers.
if (!server.listening) await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
process.send?.({ port: server.address().port });
process.on("disconnect", () => process.exit(0));
process.on("message", (m) => {
  if (m === "exit") process.exit(0);
  // CPU time of this process so far (user + system, µs): the load generator divides it by the requests served.
  if (m === "cpu") {
    const { user, system } = process.cpuUsage();
    process.send?.({ cpu: user + system });
  }
});
