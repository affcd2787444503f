/**
 * Twilio (https://www.twilio.com/docs/usage/webhooks/webhooks-security#validating-signatures-from-twilio):
 * `X-Twilio-Signature: <base64>` HMAC-SHA1 of the URL Twilio called followed by the form parameters sorted by name
 * (JSON bodies: of the URL, whose `bodySHA256` is the body's SHA-256), keyed with the auth token.
 */
import { BODY_EVENT_TYPE, BODY_TYPE, encodeDigest, formNames, HMAC_DEFAULTS, originOf, presentedDigest, required, signedUrl } from "./schemes.js";
import type { SchemePreset, SignatureFormat } from "./schemes.js";
import { hmacDigest, sha256Hex, timingSafeEqual, toBytes } from "./signature.js";
import type { HmacSecret, RawBody } from "./signature.js";

/** The URL as written, without its port and with the default one: Twilio's library accepts either form. */
function portForms(url: string): string[] {
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/is.exec(url);
  if (!match) return [url];
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const host = authority.replace(/:\d*$/, "");
  const port = scheme.toLowerCase() === "https://" ? ":443" : ":80";
  return [...new Set([url, scheme + host + rest, scheme + host + port + rest])];
}

/** Twilio's signed form parameters: each name then its value, by name (a repeated name's values sorted). */
function twilioParams(raw: Uint8Array): string {
  const params = new URLSearchParams(new TextDecoder().decode(raw));
  const names = formNames(params).sort();
  return names.map((name) => [...new Set(params.getAll(name))].sort().map((value) => name + value).join("")).join("");
}

/** Twilio's URL for a JSON body: `bodySHA256=<hex SHA-256 of the body>` added to the query. */
export async function twilioJsonUrl(url: string, body: RawBody): Promise<string> {
  const target = new URL(url);
  target.searchParams.set("bodySHA256", await sha256Hex(body));
  return target.href;
}

const twilioFormat: SignatureFormat = {
  present(scheme, headers, context) {
    const digest = presentedDigest(scheme, required(headers, scheme.header));
    const url = signedUrl(scheme, context.url);
    const json = new URL(url).searchParams.has("bodySHA256");
    return { around: portForms(url).map((before) => ({ before, after: "" })), digests: [digest], twilioParams: !json };
  },
  async signedMessages(presented, raw) {
    if (presented.twilioParams) {
      const params = twilioParams(raw);
      return presented.around.map(({ before }) => toBytes(before + params));
    }
    // A JSON body is covered by its hash in the signed URL's `bodySHA256`.
    const expected = new URL(presented.around[0]!.before).searchParams.get("bodySHA256") ?? "";
    const actual = await sha256Hex(raw);
    return timingSafeEqual(toBytes(expected.toLowerCase()), toBytes(actual)) ? presented.around.map(({ before }) => toBytes(before)) : [];
  },
  async sign(scheme, body, key, values) {
    const url = signedUrl(scheme, values.url);
    const json = new URL(url).searchParams.has("bodySHA256");
    const message = json ? url : url + twilioParams(toBytes(body));
    return { [scheme.header]: encodeDigest(await hmacDigest(toBytes(message), key as HmacSecret, scheme.hash), scheme.signEncoding) };
  },
};

/** `scheme: "twilio"`. */
export const twilioScheme: SchemePreset = {
  name: "twilio",
  resolve: (options) => ({
    ...HMAC_DEFAULTS,
    name: "twilio",
    kind: "twilio",
    header: "X-Twilio-Signature",
    encodings: ["base64"],
    signEncoding: "base64",
    hash: "SHA-1",
    eventSources: [BODY_TYPE, BODY_EVENT_TYPE],
    deliveryIdHeader: "I-Twilio-Idempotency-Token",
    ...(options.origin !== undefined ? { origin: originOf(options.origin) } : {}),
    format: twilioFormat,
  }),
};
