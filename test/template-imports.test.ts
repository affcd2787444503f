import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foreignImports } from "../src/package/template-imports.js";
import { ROOT } from "./helpers.js";

describe("templates need nothing installed downstream", () => {
  it("every template imports only its siblings and node: built-ins", () => {
    const files = ["client", "server", "webhooks", "queries", "msw", "files"].flatMap((kind) =>
      readdirSync(join(ROOT, "templates", kind))
        .filter((n) => n.endsWith(".ts"))
        .map((name) => ({ path: `${kind}/${name}`, text: readFileSync(join(ROOT, "templates", kind, name), "utf8") })),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(foreignImports(files)).toEqual([]);
  });

  it("lets the MSW output, and it alone, import msw", () => {
    const text = 'import { HttpHandler } from "msw";\n';
    expect(foreignImports([{ path: "msw/index.ts", text }, { path: "files/msw.ts", text }])).toEqual([]);
    expect(foreignImports([{ path: "server/mock.ts", text }, { path: "files/client.ts", text }])).toEqual(['server/mock.ts: imports "msw"', 'files/client.ts: imports "msw"']);
  });

  it("names a package import, a re-export from a package and a dynamic import", () => {
    const text = 'import Ajv from "ajv";\nexport { x } from "lodash";\nimport { a } from "./a.js";\nimport { b } from "node:crypto";\nconst m = await import("undici");\n';
    expect(foreignImports([{ path: "server/x.ts", text }])).toEqual([
      'server/x.ts: imports "ajv"',
      'server/x.ts: imports "lodash"',
      'server/x.ts: imports "undici"',
    ]);
  });
});
