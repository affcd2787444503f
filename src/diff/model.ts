/**
 * What `specforge diff` reports: API-level changes between two versions of a spec, each classified for the two
 * parties of the API. The JSON output (`--format json`) is this shape, with `version: 1`; fields are only ever
 * added to it.
 */

/**
 * Which way data flows. `request`: sent to the API (parameters, request bodies, a webhook receiver's answers);
 * `response`: sent by the API (responses, webhook payloads). A change that lets more values through breaks whoever
 * reads that data; one that lets fewer through breaks whoever writes it.
 */
export type Direction = "request" | "response";

/** Every kind of change the engine reports. Stable: scripts may match on it. */
export const RULES = {
  "operation-added": "an operation was added",
  "operation-removed": "an operation was removed",
  "operation-moved": "an operation's method or path changed (same operationId)",
  "operation-id-changed": "an operation's operationId changed (the generated client method and server handler are renamed)",
  "operation-deprecated": "an operation was marked deprecated (or no longer is)",
  "path-parameter-renamed": "a path parameter was renamed (the generated client's and handler's `path` key changes)",
  "parameter-added": "a parameter was added",
  "parameter-removed": "a parameter was removed",
  "parameter-required": "a parameter became required or optional",
  "parameter-serialization-changed": "a parameter's style, explode or allowReserved changed",
  "parameter-deprecated": "a parameter was marked deprecated (or no longer is)",
  "request-body-added": "a request body was added",
  "request-body-removed": "a request body was removed",
  "request-body-required": "a request body became required or optional",
  "media-type-added": "a request or response media type was added",
  "media-type-removed": "a request or response media type was removed",
  "response-added": "a response status was added",
  "response-removed": "a response status was removed",
  "response-header-added": "a response header was added",
  "response-header-removed": "a response header was removed",
  "response-header-required": "a response header became required or optional",
  "property-added": "an object property was added",
  "property-removed": "an object property was removed (or became readOnly/writeOnly where it was sent)",
  "property-required": "an object property became required or optional",
  "type-changed": "the type changed (including nullability)",
  "format-changed": "the format changed",
  "enum-values-added": "values were added to an enum (or const)",
  "enum-values-removed": "values were removed from an enum (or const)",
  "enum-added": "an enum (or const) was added where any value of the type was allowed",
  "enum-removed": "an enum (or const) was removed",
  "constraint-changed": "a bound changed: minimum, maximum, minLength, maxLength, minItems, maxItems, minProperties, maxProperties, multipleOf, uniqueItems",
  "pattern-changed": "a pattern was added, removed or changed",
  "additional-properties-changed": "additionalProperties changed",
  "variant-added": "a oneOf/anyOf variant was added",
  "variant-removed": "a oneOf/anyOf variant was removed",
  "composition-changed": "oneOf became anyOf or the other way round, or a `not` schema changed",
  "default-changed": "a default value changed",
  "security-added": "an operation now requires credentials, or a security requirement gained a scheme",
  "security-removed": "an operation no longer requires credentials, or a requirement lost a scheme",
  "security-alternative-added": "another way to authenticate was added",
  "security-alternative-removed": "a way to authenticate was removed",
  "security-scopes-added": "a security requirement needs more OAuth scopes",
  "security-scopes-removed": "a security requirement needs fewer OAuth scopes",
  "security-scheme-changed": "how a credential is sent changed (type, scheme, header/query/cookie name, OAuth flows)",
  "server-added": "a server URL was added",
  "server-removed": "a server URL was removed",
  "server-variable-changed": "a server variable's values or default changed",
  "webhook-added": "a webhook was added",
  "webhook-removed": "a webhook was removed",
} as const;

export type RuleId = keyof typeof RULES;

/** Who a change breaks: a client of the API, an implementation of it (with the generated router), both or neither. */
export interface Breaks {
  client: boolean;
  server: boolean;
}

export interface Change {
  /** The kind of change (see RULES). */
  rule: RuleId;
  breaking: Breaks;
  /** Where, in words: `POST /pets request body (application/json) .tag`, or `Pet.tag` inside a component. */
  subject: string;
  /** What changed, in words: `type changed from string to integer`. */
  message: string;
  /** For changes to data: which way it flows (see Direction). */
  direction?: Direction;
  /**
   * JSON pointers (RFC 6901, without `#`) into the old and the new bundled document. Something added has `old`
   * pointing at where it would be (its parent); something removed has `new` pointing at its parent.
   */
  old: string;
  new: string;
  /** The operations and webhooks whose requests or responses the change affects (`GET /pets/{petId}`, `webhook pet.created`). */
  operations: string[];
}

/** The result of comparing two documents. */
export interface DiffResult {
  changes: Change[];
  /** `info.version` of each document, when present. */
  versions: { old?: string; new?: string };
}

export const isBreaking = (change: Change) => change.breaking.client || change.breaking.server;

/** Order of the groups in every output format. */
export const GROUPS = [
  { key: "both", title: "Breaking for clients and servers", test: (b: Breaks) => b.client && b.server },
  { key: "client", title: "Breaking for clients", test: (b: Breaks) => b.client && !b.server },
  { key: "server", title: "Breaking for servers", test: (b: Breaks) => !b.client && b.server },
  { key: "compatible", title: "Compatible", test: (b: Breaks) => !b.client && !b.server },
] as const;

export interface DiffSummary {
  total: number;
  breakingForClients: number;
  breakingForServers: number;
  compatible: number;
}

export function summarize(changes: readonly Change[]): DiffSummary {
  return {
    total: changes.length,
    breakingForClients: changes.filter((c) => c.breaking.client).length,
    breakingForServers: changes.filter((c) => c.breaking.server).length,
    compatible: changes.filter((c) => !isBreaking(c)).length,
  };
}
