import type { paths } from "./schema.js";
import type {
  OAuth2Credentials,
  Handler,
  Router,
  RouterOptions,
} from "./runtime/server/index.js";

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
export interface SecurityAlternatives {
  oauth: {
    oauth: OAuth2Credentials;
  };
}
export type Credentials = SecurityAlternatives[keyof SecurityAlternatives];

/** One optional handler per operation. A missing handler answers 501 (or a mock value in mock mode). */
export interface Handlers<Auth = unknown> {
  /**
   * The same search as a form in the query string
   *
   * `GET /flights/search`
   */
  findFlights?: Handler<paths["/flights/search"]["get"], Auth>;
  /**
   * Search flights with a QUERY body (safe and idempotent, unlike POST)
   *
   * `QUERY /flights/search`
   */
  searchFlights?: Handler<
    paths["/flights/search"]["query"],
    Auth,
    "application/json"
  >;
  /** `GET /flights/lookup` */
  lookupFlights?: Handler<paths["/flights/lookup"]["get"], Auth>;
  /** `GET /flights/select` */
  selectFlights?: Handler<paths["/flights/select"]["get"], Auth>;
  /** `GET /flights/{id}` */
  getFlight?: Handler<paths["/flights/{id}"]["get"], Auth>;
  /**
   * Copy a flight to the Destination
   *
   * `COPY /flights/{id}`
   */
  copyFlight?: Handler<paths["/flights/{id}"]["COPY"], Auth>;
  /**
   * Link two flights (no operationId)
   *
   * `LINK /flights/{id}`
   */
  linkFlightsById?: Handler<
    paths["/flights/{id}"]["LINK"],
    Auth,
    "application/json"
  >;
  /**
   * A manifest, then any number of photos (parts by position)
   *
   * `POST /flights/{id}/photos`
   */
  uploadPhotos?: Handler<paths["/flights/{id}/photos"]["post"], Auth>;
  /** `POST /pets` */
  addPet?: Handler<paths["/pets"]["post"], Auth, "application/json">;
  /** `GET /prefs` */
  getPrefs?: Handler<paths["/prefs"]["get"], Auth>;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials>,
): Router;
