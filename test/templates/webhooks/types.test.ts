/**
 * Type-level tests: checked by `tsc -p tsconfig.json` (expectTypeOf / @ts-expect-error); the
 * runtime part only makes sure the assertions execute.
 */
import { describe, expectTypeOf, it } from "vitest";
import { createWebhookTools } from "../../../templates/webhooks/index.js";
import type { WebhookEventOf, WebhookFailureReason, WebhookPayloadOf, WebhookPayloadsOf } from "../../../templates/webhooks/index.js";
import type { components, webhooks } from "./fixtures/schema.js";
import {
  createWebhookHandler,
  parseWebhook,
  renderPayloadTemplate,
  verifyWebhookSignature,
  WEBHOOK_EVENT_TYPES,
  WebhookVerificationError,
  webhookSpec,
} from "./fixtures/webhooks.js";
import type { WebhookEvent, WebhookEvents } from "./fixtures/webhooks.js";
import { ALL_SCHEMES } from "../../../src/emit/webhook-schemes.js";

type AliasPayload = components["schemas"]["ArtifactAliasEvent"];
type LinkPayload = components["schemas"]["LinkArtifactEvent"];
type RunPayload = webhooks["RUN_STATE"]["post"]["requestBody"]["content"]["application/json"];

describe("payload extraction from openapi-typescript output", () => {
  it("WebhookPayloadOf reads post.requestBody.content['application/json'], also when requestBody is optional", () => {
    expectTypeOf<WebhookPayloadOf<webhooks["ADD_ARTIFACT_ALIAS"]>>().toEqualTypeOf<AliasPayload>();
    expectTypeOf<WebhookPayloadOf<webhooks["LINK_ARTIFACT"]>>().toEqualTypeOf<LinkPayload>();
    expectTypeOf<WebhookPayloadsOf<webhooks>>().toEqualTypeOf<{
      ADD_ARTIFACT_ALIAS: AliasPayload;
      LINK_ARTIFACT: LinkPayload;
      RUN_STATE: RunPayload;
    }>();
    expectTypeOf<WebhookEvents>().toEqualTypeOf<WebhookPayloadsOf<webhooks>>();
    // Other JSON media types fall back to the first content entry; no body → unknown.
    expectTypeOf<WebhookPayloadOf<{ post: { requestBody: { content: { "application/cloudevents+json": { id: string } } } } }>>()
      .toEqualTypeOf<{ id: string }>();
    expectTypeOf<WebhookPayloadOf<{ post: { parameters: {} } }>>().toEqualTypeOf<unknown>();
  });
});

describe("the event union narrows by type", () => {
  it("narrows payload in if/switch and is exhaustive", () => {
    const check = (event: WebhookEvent) => {
      expectTypeOf(event.type).toEqualTypeOf<"ADD_ARTIFACT_ALIAS" | "LINK_ARTIFACT" | "RUN_STATE">();
      expectTypeOf(event.headers).toEqualTypeOf<Headers>();
      if (event.type === "ADD_ARTIFACT_ALIAS") {
        expectTypeOf(event.payload).toEqualTypeOf<AliasPayload>();
        expectTypeOf(event.payload.alias).toBeString();
      }
      switch (event.type) {
        case "RUN_STATE":
          expectTypeOf(event.payload.run_state).toEqualTypeOf<"RUNNING" | "FINISHED" | "FAILED">();
          // @ts-expect-error -- alias only exists on ADD_ARTIFACT_ALIAS payloads
          void event.payload.alias;
          break;
        case "LINK_ARTIFACT":
          expectTypeOf(event.payload).toEqualTypeOf<LinkPayload>();
          break;
        case "ADD_ARTIFACT_ALIAS":
          break;
        default:
          expectTypeOf(event).toBeNever();
      }
    };
    void check;
  });

  it("WebhookEventOf with a key picks one member", () => {
    expectTypeOf<WebhookEventOf<WebhookEvents, "RUN_STATE">>().toEqualTypeOf<{
      readonly type: "RUN_STATE";
      readonly payload: RunPayload;
      readonly headers: Headers;
      readonly deliveryId: string | undefined;
      readonly replayKey: string | undefined;
    }>();
    expectTypeOf<Extract<WebhookEvent, { type: "LINK_ARTIFACT" }>>().toEqualTypeOf<WebhookEventOf<WebhookEvents, "LINK_ARTIFACT">>();
  });

  it("WEBHOOK_EVENT_TYPES matches the event names", () => {
    expectTypeOf<(typeof WEBHOOK_EVENT_TYPES)[number]>().toEqualTypeOf<WebhookEvent["type"]>();
  });
});

describe("function signatures", () => {
  it("parseWebhook resolves to the union; options need credentials", () => {
    expectTypeOf(parseWebhook).returns.resolves.toEqualTypeOf<WebhookEvent>();
    type Input = Parameters<typeof parseWebhook>[0];
    expectTypeOf<Request>().toExtend<Input>();
    expectTypeOf<{ body: Uint8Array; headers: Record<string, string | string[] | undefined> }>().toExtend<Input>();
    expectTypeOf<{ body: string; headers: import("node:http").IncomingHttpHeaders }>().toExtend<Input>();
    const lazy = () => {
      // @ts-expect-error -- neither secret nor accessToken
      void parseWebhook(new Request("http://x"), {});
      // @ts-expect-error -- a token alone: unsigned deliveries must be asked for
      void parseWebhook(new Request("http://x"), { accessToken: "t" });
      void parseWebhook(new Request("http://x"), { accessToken: "t", insecureNoSignature: true });
      // @ts-expect-error -- a secret and no signatures contradict each other
      void parseWebhook(new Request("http://x"), { secret: "s", insecureNoSignature: true });
      void parseWebhook(new Request("http://x"), { secret: ["new", "old"], scheme: "github" });
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: { type: "stripe", toleranceSeconds: 60 } });
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: { type: "hmac-sha256", header: "X-Sig", prefix: "v1=" } });
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: "svix" });
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: { type: "zoom", challenge: false }, eventType: { in: "body", name: "event" } });
      void parseWebhook(new Request("http://x"), {
        secret: "s",
        scheme: { type: "hmac", algorithm: "sha512", encoding: "base64", signedContent: "{id}.{timestamp}.{body}", header: "X-Sig", idHeader: "X-Id", timestampHeader: "X-Ts" },
      });
      // @ts-expect-error -- not a scheme
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: "mailgun" });
      // @ts-expect-error -- a described hmac scheme needs its header
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: { type: "hmac", algorithm: "sha1" } });
      // @ts-expect-error -- not an algorithm of the hmac scheme
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: { type: "hmac", header: "X", algorithm: "md5" } });
      // @ts-expect-error -- an hmac-sha256 scheme needs its header
      void parseWebhook(new Request("http://x"), { secret: "s", scheme: { type: "hmac-sha256" } });
      void parseWebhook(new Request("http://x"), { secret: "s", accessToken: "t", maxBodyBytes: 10 });
    };
    void lazy;
  });

  it("verifyWebhookSignature takes raw bytes or text", () => {
    expectTypeOf(verifyWebhookSignature).returns.toEqualTypeOf<Promise<boolean>>();
    expectTypeOf(verifyWebhookSignature).parameter(0).toEqualTypeOf<string | ArrayBuffer | Uint8Array>();
    expectTypeOf(verifyWebhookSignature).parameter(1).toEqualTypeOf<string | null | undefined>();
  });

  it("createWebhookHandler: handlers are keyed by event and receive the narrowed event", () => {
    const handler = createWebhookHandler({
      secret: "s",
      on: {
        RUN_STATE: (event) => {
          expectTypeOf(event.type).toEqualTypeOf<"RUN_STATE">();
          expectTypeOf(event.payload).toEqualTypeOf<RunPayload>();
        },
        LINK_ARTIFACT: async (event) => new Response(event.payload.artifact_collection_name),
      },
      onUnhandled: (event) => {
        expectTypeOf(event).toEqualTypeOf<WebhookEvent>();
      },
      onError: (_error, { event }) => {
        expectTypeOf(event).toEqualTypeOf<WebhookEvent | undefined>();
      },
    });
    expectTypeOf(handler).toEqualTypeOf<(request: Request) => Promise<Response>>();
    const bad = () =>
      createWebhookHandler({
        secret: "s",
        on: {
          // @ts-expect-error -- not a declared event
          DELETE_EVERYTHING: () => undefined,
        },
      });
    void bad;
  });

  it("renderPayloadTemplate checks variable names and types", () => {
    expectTypeOf(renderPayloadTemplate).returns.toBeString();
    const lazy = () => {
      renderPayloadTemplate("{}", { project_name: "p", artifact_metadata: { a: 1 }, event_type: "RUN_STATE" }, { ACCESS_TOKEN: "t" });
      // @ts-expect-error -- project_name is a string
      renderPayloadTemplate("{}", { project_name: 1 });
      // @ts-expect-error -- undeclared variable
      renderPayloadTemplate("{}", { projectName: "p" });
    };
    void lazy;
  });

  it("WebhookVerificationError exposes a typed reason", () => {
    expectTypeOf<WebhookVerificationError["reason"]>().toEqualTypeOf<WebhookFailureReason>();
    expectTypeOf<WebhookFailureReason>().toEqualTypeOf<
      | "missing_signature"
      | "bad_signature"
      | "bad_timestamp"
      | "bad_token"
      | "bad_json"
      | "unknown_event"
      | "body_too_large"
      | "body_timeout"
      | "challenge"
    >();
  });

  it("createWebhookTools rejects spec events that are not in the Events map", () => {
    const lazy = () => {
      createWebhookTools<WebhookEvents>(webhookSpec, ALL_SCHEMES);
      // @ts-expect-error -- "NOT_AN_EVENT" is not a key of WebhookEvents
      createWebhookTools<WebhookEvents>({ events: ["RUN_STATE", "NOT_AN_EVENT"] }, ALL_SCHEMES);
      // @ts-expect-error -- unsupported encoding
      createWebhookTools<WebhookEvents>({ signature: { encoding: "base32" }, events: ["RUN_STATE"] }, ALL_SCHEMES);
    };
    void lazy;
  });
});
