import { assertSpecExists, resolveConfig } from "../config/resolve.js";
import { UserError, formatWarning, toDisplayPath } from "../errors.js";
import { EXIT, defineCommand } from "./command.js";
import { configOption, configSources, projectOption, specOption, quietOption, type ConfigArgs, readingOptions } from "./options.js";

interface MockArgs extends Pick<ConfigArgs, "spec" | "config" | "project" | "ref-root" | "max-spec-file-bytes"> {
  port: number;
  quiet?: boolean;
}

export const mockCommand = defineCommand<MockArgs>({
  name: "mock",
  describe: "serve the spec on 127.0.0.1 with example or schema-generated answers (until interrupted)",
  options: (defaults) => ({
    spec: specOption(defaults),
    ...readingOptions,
    config: configOption,
    project: { ...projectOption, defaultDescription: undefined, describe: "with a config listing several `projects`: the one to serve" },
    port: { type: "number", default: 4010, requiresArg: true, integer: true, min: 0, max: 65535, describe: "port on 127.0.0.1 (0 picks a free one)" },
    ...quietOption,
  }),
  examples: [
    ["$0 mock", "serve the spec on http://127.0.0.1:4010 (requests are validated; answers come from the spec)"],
    ["$0 mock --spec openapi.yaml --port 0", "another spec, on any free port"],
  ],
  async run(args, context) {
    const out = context.output(args);
    const config = await resolveConfig(configSources(args, context.io.cwd, context.env));
    assertSpecExists(config);
    const { startMockServer } = await import("./mock.js");
    const mock = await startMockServer(config, args.port).catch((error: NodeJS.ErrnoException) => {
      if (error?.code === "EADDRINUSE" || error?.code === "EACCES") {
        throw new UserError(`cannot listen on 127.0.0.1:${args.port}: ${error.code === "EADDRINUSE" ? "the port is in use" : "permission denied"}`, {
          location: "command line",
          hint: "pass another --port, or --port 0 for any free one",
        });
      }
      throw error;
    });
    for (const warning of mock.warnings) out.warn(formatWarning(warning));
    const [first, ...others] = mock.basePaths;
    const also = others.length > 0 ? `; also under ${others.map((path) => path || "/").join(", ")}` : "";
    out.info(`specforge: mock server for ${toDisplayPath(config.spec, config.cwd)} on ${mock.url}${first ?? ""} (${mock.routes} routes${also}); Ctrl-C stops it`);
    const stop = context.stopSignal();
    try {
      await new Promise<void>((resolve) => (stop.signal.aborted ? resolve() : stop.signal.addEventListener("abort", () => resolve(), { once: true })));
      await mock.close();
    } finally {
      stop.dispose();
    }
    return EXIT.ok;
  },
});
