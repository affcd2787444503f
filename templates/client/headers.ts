/**
 * Header and cookie parameters, for a spec that declares them (cookies also for an API key sent as a cookie): the
 * request engine itself sends only path and query parameters. OpenAPI's default styles for both (`simple`, and
 * `form` for cookies, which is the same for a single value and comma-joins lists) unless the spec needs the whole
 * style table (serialize.ts `styles`).
 */
import type { RequestParams, RuntimeFeatures } from "./runtime.js";
import type { AppliedCredentials, OperationSpec, ParamSerializers, ParamSpec } from "./types.js";
import { entriesOf, paramSpec, simple } from "./values.js";

/** Header parameters, for `createRuntime`. */
export const headerParamsFeature: RuntimeFeatures = { headerParams: setHeaderParams };

/** Cookie parameters and cookie API keys, for `createRuntime`. */
export const cookiesFeature: RuntimeFeatures = { cookies: setCookie };

/** A header parameter's value in the default style: `simple`, never percent-encoded. */
const simpleValue = (_: ParamSpec, value: unknown): string => simple(value);

/** A cookie parameter in the default style (`form`): one `name=value` pair, the value percent-encoded. */
const formCookie = (spec: ParamSpec, value: unknown): string[] => [`${spec.name}=${encodeURIComponent(simple(value))}`];

/** Sets the call's header parameters (those with neither `null` nor `undefined` for a value). */
function setHeaderParams(headers: Headers, spec: OperationSpec, params: RequestParams, _credentials: unknown, serializers: ParamSerializers | undefined): void {
  const serialize = serializers?.header ?? simpleValue;
  if (params.headers) for (const [name, value] of entriesOf(params.headers)) headers.set(name, serialize(paramSpec(spec.params?.header, name), value));
}

/** Sets the Cookie header: cookie parameters (each in its style), then cookie API keys, percent-encoded. */
function setCookie(headers: Headers, spec: OperationSpec, params: RequestParams, credentials: AppliedCredentials | undefined, serializers: ParamSerializers | undefined): void {
  const pairs = serializers?.cookie ?? formCookie;
  if (params.cookies || credentials?.cookies.length) {
    const cookie = [
      ...entriesOf(params.cookies).flatMap(([name, value]) => pairs(paramSpec(spec.params?.cookie, name), value)),
      ...(credentials?.cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`) ?? []),
    ].join("; ");
    if (cookie) headers.set("Cookie", cookie);
  }
}
