/**
 * OAuth 2.0 Device Authorization Grant (RFC 8628), for security schemes whose flows include OpenAPI 3.2's
 * `deviceAuthorization`: the client asks the authorization server for a user code, hands it to you to show, polls
 * the token endpoint until the user has approved (honouring `interval` and `slow_down`), and then sends the access
 * token, refreshing it with its refresh token when it expires. The endpoints come from the spec, or from the
 * authorization server's metadata (RFC 8414) at OpenAPI 3.2's `oauth2MetadataUrl`.
 */
import type { ClientOptions, CredentialContext, FetchLike, OAuth2Endpoints, SecuritySchemeSpec } from "./types.js";

import { credentialsFor } from "./auth.js";
import type { RuntimeFeatures } from "./runtime.js";
import { authorizing } from "./token.js";

export type { OAuth2Endpoints };

/**
 * Client options that run the OAuth 2 device flow, for `createRuntime`: auth.ts' credentials, from the options with
 * each device flow replaced by its credential function once per client.
 */
export const deviceFlowFeature: RuntimeFeatures = { authorize: (schemes, options) => authorizing(credentialsFor)(schemes, withDeviceFlows(options, schemes)) };

/** What `onUserCode` is told: the code to show, and where the user enters it. */
export interface DeviceCodePrompt {
  userCode: string;
  verificationUri: string;
  /** The URI with the code filled in, when the server gives one (for a QR code or a link). */
  verificationUriComplete?: string;
  /** Seconds until the code expires. */
  expiresIn: number;
}

/** The value of an OAuth 2 scheme's client option that runs the device authorization flow. */
export interface OAuth2DeviceFlow {
  deviceFlow: {
    clientId: string;
    /** For confidential clients (sent in the form, RFC 6749 §2.3.1). */
    clientSecret?: string | undefined;
    /** The scopes to ask for. Default: every scope the spec's device flow lists. */
    scopes?: readonly string[] | undefined;
    /** Show the user the code and where to enter it. The flow waits for the user after this returns. */
    onUserCode: (prompt: DeviceCodePrompt) => void | Promise<void>;
    /** Instead of the spec's endpoints (or its metadata document's). */
    deviceAuthorizationUrl?: string | undefined;
    tokenUrl?: string | undefined;
    /** Where the authorization server's metadata is (RFC 8414); default: the spec's `oauth2MetadataUrl`. */
    metadataUrl?: string | undefined;
    /** A fetch for the authorization server; default: the client's, else `globalThis.fetch`. */
    fetch?: FetchLike | undefined;
    /** Gives up waiting for the user after this many milliseconds (default: when the code expires). */
    timeoutMs?: number | undefined;
  };
}

/** What the spec says of a scheme's OAuth endpoints (templates/client/types.ts `SecuritySchemeSpec.oauth2`). */
/** Raised when the flow cannot give a token: the user denied it, the code expired, or the server refused. */
export class OAuth2Error extends Error {
  /** The OAuth `error` code (`access_denied`, `expired_token`, …), when the server sent one. */
  readonly code: string | undefined;

  constructor(message: string, code?: string) {
    super(message);
    this.name = "OAuth2Error";
    this.code = code;
  }
}

interface Token {
  accessToken: string;
  /** Epoch milliseconds after which the token is not used; Infinity when the server gave no lifetime. */
  expiresAt: number;
  refreshToken?: string;
}

/** The RFC 8628 grant type of the token request. */
const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
/** A token is renewed this long before it expires, so that it does not expire on the way. */
const EXPIRY_MARGIN_MS = 30_000;
/** RFC 8628 §3.2: without an `interval`, wait 5 s between polls; `slow_down` adds 5 s. */
const DEFAULT_INTERVAL_S = 5;

export function isDeviceFlow(value: unknown): value is OAuth2DeviceFlow {
  return typeof value === "object" && value !== null && typeof (value as OAuth2DeviceFlow).deviceFlow === "object" && (value as OAuth2DeviceFlow).deviceFlow !== null;
}

/**
 * A credential function for one scheme: the current access token, getting one through the device flow (once, for
 * every call waiting on it) or renewing it with its refresh token when it is missing or about to expire.
 */
export function deviceFlowCredential(config: OAuth2DeviceFlow["deviceFlow"], spec: OAuth2Endpoints, clientFetch: FetchLike | undefined): (context: CredentialContext) => Promise<string> {
  const fetchImpl: FetchLike = config.fetch ?? clientFetch ?? ((request, init) => globalThis.fetch(request, init));
  let token: Token | undefined;
  let pending: Promise<Token> | undefined;
  let endpoints: Promise<{ device: string; token: string }> | undefined;

  const post = async (url: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> => {
    const form = new URLSearchParams(fields);
    if (config.clientSecret !== undefined) form.set("client_secret", config.clientSecret);
    const response = await fetchImpl(new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: form }));
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (typeof body !== "object" || body === null || Array.isArray(body)) throw new OAuth2Error(`${url} answered ${response.status} without a JSON object`);
    return { status: response.status, body: body as Record<string, unknown> };
  };

  const resolveEndpoints = () =>
    (endpoints ??= (async () => {
      let device = config.deviceAuthorizationUrl ?? spec.deviceAuthorizationUrl;
      let tokenUrl = config.tokenUrl ?? spec.tokenUrl;
      const metadataUrl = config.metadataUrl ?? spec.metadataUrl;
      if ((device === undefined || tokenUrl === undefined || config.metadataUrl !== undefined) && metadataUrl !== undefined) {
        const response = await fetchImpl(new Request(metadataUrl, { headers: { accept: "application/json" } }));
        const metadata = (await response.json().catch(() => ({}))) as Record<string, unknown>;
        if (typeof metadata["device_authorization_endpoint"] === "string") device = config.deviceAuthorizationUrl ?? metadata["device_authorization_endpoint"];
        if (typeof metadata["token_endpoint"] === "string") tokenUrl = config.tokenUrl ?? metadata["token_endpoint"];
      }
      if (device === undefined || tokenUrl === undefined) throw new OAuth2Error("The device flow needs a device authorization endpoint and a token endpoint (from the spec, its oauth2MetadataUrl, or the option)");
      return { device, token: tokenUrl };
    })());

  const tokenFrom = (body: Record<string, unknown>, previous?: Token): Token => {
    if (typeof body["access_token"] !== "string") throw new OAuth2Error("The token endpoint answered without an access_token");
    const lifetime = typeof body["expires_in"] === "number" ? body["expires_in"] * 1000 : Infinity;
    const refreshToken = typeof body["refresh_token"] === "string" ? body["refresh_token"] : previous?.refreshToken;
    return { accessToken: body["access_token"], expiresAt: Date.now() + lifetime - (lifetime === Infinity ? 0 : Math.min(EXPIRY_MARGIN_MS, lifetime / 2)), ...(refreshToken ? { refreshToken } : {}) };
  };

  const refresh = async (previous: Token): Promise<Token | undefined> => {
    const { token: tokenUrl } = await resolveEndpoints();
    const { status, body } = await post(tokenUrl, { grant_type: "refresh_token", refresh_token: previous.refreshToken!, client_id: config.clientId });
    // A refused refresh token means starting over with the user.
    return status === 200 ? tokenFrom(body, previous) : undefined;
  };

  const authorize = async (): Promise<Token> => {
    const { device, token: tokenUrl } = await resolveEndpoints();
    const scopes = config.scopes ?? spec.scopes ?? [];
    const fields: Record<string, string> = { client_id: config.clientId };
    if (scopes.length > 0) fields["scope"] = scopes.join(" ");
    const started = await post(device, fields);
    const grant = started.body;
    if (started.status !== 200 || typeof grant["device_code"] !== "string" || typeof grant["user_code"] !== "string" || typeof grant["verification_uri"] !== "string") {
      throw new OAuth2Error(`The device authorization endpoint refused: ${String(grant["error_description"] ?? grant["error"] ?? started.status)}`, typeof grant["error"] === "string" ? grant["error"] : undefined);
    }
    const expiresIn = typeof grant["expires_in"] === "number" ? grant["expires_in"] : 600;
    const prompt: DeviceCodePrompt = { userCode: grant["user_code"], verificationUri: grant["verification_uri"], expiresIn };
    if (typeof grant["verification_uri_complete"] === "string") prompt.verificationUriComplete = grant["verification_uri_complete"];
    await config.onUserCode(prompt);
    let interval = (typeof grant["interval"] === "number" && grant["interval"] >= 0 ? grant["interval"] : DEFAULT_INTERVAL_S) * 1000;
    const deadline = Date.now() + Math.min(config.timeoutMs ?? Infinity, expiresIn * 1000);
    for (;;) {
      if (Date.now() + interval > deadline) throw new OAuth2Error("The user did not approve the device code before it expired", "expired_token");
      await new Promise((resolve) => setTimeout(resolve, interval));
      const { status, body } = await post(tokenUrl, { grant_type: DEVICE_CODE_GRANT, device_code: grant["device_code"], client_id: config.clientId });
      if (status === 200) return tokenFrom(body);
      if (body["error"] === "authorization_pending") continue;
      if (body["error"] === "slow_down") {
        interval += DEFAULT_INTERVAL_S * 1000;
        continue;
      }
      throw new OAuth2Error(`The token endpoint refused the device code: ${String(body["error_description"] ?? body["error"] ?? status)}`, typeof body["error"] === "string" ? body["error"] : undefined);
    }
  };

  return async () => {
    if (token && token.expiresAt > Date.now()) return token.accessToken;
    pending ??= (async () => {
      try {
        const renewed = token?.refreshToken ? await refresh(token) : undefined;
        token = renewed ?? (await authorize());
        return token;
      } finally {
        pending = undefined;
      }
    })();
    return (await pending).accessToken;
  };
}

/**
 * The client options with every OAuth 2 device flow configuration (`{ deviceFlow: { clientId, onUserCode } }`)
 * replaced by the credential function that runs it, made once per client so its token is shared by every call.
 */
export function withDeviceFlows(options: ClientOptions, schemes: Readonly<Record<string, SecuritySchemeSpec>>): Readonly<Record<string, unknown>> {
  const values = options as Readonly<Record<string, unknown>>;
  let copy: Record<string, unknown> | undefined;
  for (const scheme of Object.values(schemes)) {
    if (scheme.type !== "bearer" || !scheme.oauth2) continue;
    for (const option of scheme.options) {
      const value = values[option];
      if (isDeviceFlow(value)) (copy ??= { ...values })[option] = deviceFlowCredential(value.deviceFlow, scheme.oauth2, options.fetch);
    }
  }
  return copy ?? values;
}
