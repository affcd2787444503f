import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { foreignImports } from "../src/package/template-imports.js";
import { ROOT } from "./helpers.js";

describe("templates need nothing installed downstream", () => {
  it("every template imports only its siblings and node: built-ins", () => {
    const files = ["client", "server", "webhooks", "files"].flatMap((kind) =>
      readdirSync(join(ROOT, "templates", kind))
        .filter((n) => n.endsWith(".ts"))
        .map((name) => ({ path: `${kind}/${name}`, text: readFileSync(join(ROOT, "templates", kind, name), "utf8") })),
    );
    expect(files.length).toBeGreaterThan(10);
    expect(foreignImports(files)).toEqual([]);
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
