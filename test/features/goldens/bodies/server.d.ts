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
  /** `POST /forms` */
  submitForm?: Handler<paths["/forms"]["post"], Auth>;
  /** `POST /uploads` */
  upload?: Handler<paths["/uploads"]["post"], Auth>;
  /** `GET /blobs/{id}` */
  getBlob?: Handler<paths["/blobs/{id}"]["get"], Auth>;
  /** `PUT /blobs/{id}` */
  putBlob?: Handler<paths["/blobs/{id}"]["put"], Auth>;
  /** `POST /notes` */
  postNote?: Handler<paths["/notes"]["post"], Auth>;
  /** `GET /maybe` */
  maybe?: Handler<paths["/maybe"]["get"], Auth>;
  /** `GET /only-default` */
  onlyDefault?: Handler<paths["/only-default"]["get"], Auth>;
  /** `GET /no-operation-id/{petId}` */
  getNoOperationIdByPetId?: Handler<
    paths["/no-operation-id/{petId}"]["get"],
    Auth
  >;
  /** `POST /no-operation-id/{petId}` */
  postNoOperationIdByPetId?: Handler<
    paths["/no-operation-id/{petId}"]["post"],
    Auth
  >;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials>,
): Router;
