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
   * A JSON manifest, then any number of blobs, each with its checksum
   *
   * `POST /batches`
   */
  uploadBatch?: Handler<
    paths["/batches"]["post"],
    Auth,
    never,
    | [
        {
          "X-Manifest-Version": 2;
        }?,
        ...Array<{
          "X-Checksum": string;
          "X-Source"?: string;
        }>,
      ]
    | Record<string, never>
  >;
  /**
   * The same upload as a form or as parts by position, each with its own part headers
   *
   * `POST /notes`
   */
  addNote?: Handler<
    paths["/notes"]["post"],
    Auth,
    never,
    | {
        note?: Array<{
          "X-Lang": "en" | "fr";
        }>;
      }
    | [
        {
          "X-Priority"?: number;
        }?,
        ...Array<Record<string, never>>,
      ]
    | Record<string, never>
  >;
}

/** A web-standard router (`fetch(request) => Promise<Response>`) for every route of the spec. Secured operations need `options.authenticate` (or `insecureNoAuth: true`); use `toNodeListener(router)` with `node:http`. */
export declare function createRouter<Auth = unknown>(
  handlers: Handlers<Auth>,
  options?: RouterOptions<Auth, Credentials>,
): Router;
