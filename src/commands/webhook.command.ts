import { WEBHOOK_SCHEME_NAMES, type WebhookSchemeName } from "../../templates/webhooks/types.js";
import { assertSpecExists, resolveConfig } from "../config/resolve.js";
import { EXIT, defineCommand } from "./command.js";
import { configOption, configSources, projectOption, specOption, quietOption, type ConfigArgs, readingOptions } from "./options.js";

interface WebhookTestArgs extends Pick<ConfigArgs, "spec" | "config" | "project" | "ref-root" | "max-spec-file-bytes"> {
  url: string;
  event?: string;
  payload?: string;
  var?: string[];
  "secret-env"?: string;
  "secret-file"?: string;
  "token-env"?: string;
  "token-file"?: string;
  scheme?: WebhookSchemeName;
  timeout: number;
  quiet?: boolean;
}

const webhookTestCommand = defineCommand<WebhookTestArgs>({
  name: "test",
  describe: "send one signed delivery to a receiver, as the provider's Test action does, and print the reply",
  options: (defaults) => ({
    url: { type: "string", demandOption: true, requiresArg: true, describe: "the receiver's URL (http or https)" },
    event: { type: "string", requiresArg: true, describe: "the event to send", defaultDescription: "the spec's first webhook" },
    payload: { type: "string", requiresArg: true, describe: "a payload template file to send instead of the event's documented one" },
    var: { type: "string", array: true, requiresArg: true, describe: "a payload variable: key=value (repeatable; a JSON object sets a map)" },
    "secret-env": { type: "string", requiresArg: true, describe: "the environment variable holding the signing secret" },
    "secret-file": { type: "string", requiresArg: true, describe: "the file holding the signing secret" },
    "token-env": { type: "string", requiresArg: true, describe: "the environment variable holding the access token" },
    "token-file": { type: "string", requiresArg: true, describe: "the file holding the access token" },
    scheme: { choices: WEBHOOK_SCHEME_NAMES, requiresArg: true, describe: "signature scheme", defaultDescription: "the spec's, else standard-webhooks" },
    timeout: { type: "number", default: 10_000, requiresArg: true, integer: true, min: 1, describe: "milliseconds for the whole exchange, reply included" },
    spec: specOption(defaults),
    ...readingOptions,
    config: configOption,
    project: { ...projectOption, defaultDescription: undefined, describe: "with a config listing several `projects`: the one whose webhooks to use" },
    ...quietOption,
  }),
  examples: [
    ["$0 webhook test --url $URL --secret-env KEY", "the spec's first event, signed with the secret in $KEY"],
    ["$0 webhook test --url $URL --event E --var a=b", "event E, with the variable a of its template set to b"],
  ],
  conflicts: [
    ["event", "payload"],
    ["secret-env", "secret-file"],
    ["token-env", "token-file"],
  ],
  async run(args, context) {
    const out = context.output(args);
    const config = await resolveConfig(configSources(args, context.io.cwd, context.env));
    assertSpecExists(config);
    const { runWebhookTest } = await import("./webhook-test.js");
    const result = await runWebhookTest(
      config,
      {
        url: args.url,
        event: args.event,
        payload: args.payload,
        vars: (args.var ?? []).map(String),
        secretEnv: args["secret-env"],
        secretFile: args["secret-file"],
        tokenEnv: args["token-env"],
        tokenFile: args["token-file"],
        scheme: args.scheme,
        timeoutMs: args.timeout,
      },
      context.env,
    );
    for (const warning of result.warnings) out.warn(warning);
    (result.ok ? out.info : out.error)(result.text);
    return result.ok ? EXIT.ok : EXIT.drift;
  },
});

export const webhookCommand = defineCommand<unknown>({
  name: "webhook",
  describe: "webhook tools: `specforge webhook test` sends a signed delivery to your receiver",
  options: () => ({}),
  examples: [["$0 webhook test --url http://localhost:3000/hooks --secret-env KEY", "send one delivery signed with the secret in $KEY"]],
  subcommands: [webhookTestCommand],
});
