import type { paths } from "./schema.js";
import type { Handler, Router, RouterOptions } from "./runtime/server/index.js";

export { toNodeListener } from "./runtime/server/node.js";
export {
  HttpError,
  mockFromSchema,
  type Router,
  type RouterError,
  type RouterOptions,
  type HandlerResult,
} from "./runtime/server/index.js";

/** What `authenticate` can be handed: one member per security alternative of the spec (the schemes a request presented, by key). Narrow with `"key" in credentials`. */
export interface SecurityAlternatives {}
export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /**
   * Ticks as JSON events, notes as text events (the specification's SSE example, reduced)
   *
   * `GET /events`
   */
  streamEvents?: Handler<paths["/events"]["get"], Auth>;
  /**
   * Scalar Galaxy's shape, an itemSchema without `data` (it describes each event's JSON data)
   *
   * `GET /planet-events`
   */
  streamPlanetEvents?: Handler<paths["/planet-events"]["get"], Auth>;
  /** `GET /ticks.jsonl` */
  streamTicksJsonl?: Handler<paths["/ticks.jsonl"]["get"], Auth>;
  /** `GET /ticks.ndjson` */
  streamTicksNdjson?: Handler<paths["/ticks.ndjson"]["get"], Auth>;
  /** `GET /ticks.seq` */
  streamTicksSeq?: Handler<paths["/ticks.seq"]["get"], Auth>;
  /**
   * A JSON answer, or (with `stream`) a stream of events whose data is a chunk
   *
   * `POST /chat`
   */
  createChat?: Handler<paths["/chat"]["post"], Auth, "application/json">;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials>,
): Router;
