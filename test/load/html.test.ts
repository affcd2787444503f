import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../../src/load/html.js";
import { cleanupTempDirs, runCli, tempDir, typecheck, writeFiles } from "../helpers.js";

afterAll(cleanupTempDirs);

describe("htmlToMarkdown", () => {
  it.each([
    ["plain text is unchanged", "Returns the pet.", "Returns the pet."],
    ["Markdown is unchanged, entities too", "Use `a < b` and **bold** &amp; more", "Use `a < b` and **bold** &amp; more"],
    ["unknown tags are text (placeholders)", "Authorization: Basic <api_key> and <branch>", "Authorization: Basic <api_key> and <branch>"],
    // Stripe's shape: paragraphs with line breaks inside, links relative to their docs, code.
    [
      "paragraphs, links, code",
      '<p>Updates a <a href="/docs/connect/accounts">connected account</a> by setting\nthe values.</p>\n\n<p>Pass <code>metadata</code>.</p>',
      "Updates a [connected account](/docs/connect/accounts) by setting\nthe values.\n\nPass `metadata`.",
    ],
    ["strong, b, em, i", "<p><strong>Note</strong>: <b>b</b> <em>e</em> <i>i</i></p>", "**Note**: **b** *e* *i*"],
    ["br is a line break in an HTML description", "<p>first<br>second<br/>third</p>", "first\nsecond\nthird"],
    // Markdown with inline HTML (DigitalOcean's tables break lines in cells with <br>): only inline tags are rewritten.
    [
      "Markdown with inline HTML keeps its lines, tables and <br>",
      "| Action | Permissions |\n| ------ | ----------- |\n| <code>restore</code>   | <nobr>`droplet:update`</nobr><br><nobr>`droplet:admin`</nobr> |\n\n<b>Note</b>:  two  spaces",
      "| Action | Permissions |\n| ------ | ----------- |\n| `restore`   | <nobr>`droplet:update`</nobr><br><nobr>`droplet:admin`</nobr> |\n\n**Note**:  two  spaces",
    ],
    ["an inline link in Markdown text (Stripe)", 'The ID. <a href="/docs/connect">See the docs</a> for details.', "The ID. [See the docs](/docs/connect) for details."],
    ["headings", "<h2>Errors</h2><p>None.</p>", "## Errors\n\nNone."],
    [
      "lists, nested and ordered",
      "<p>Either:</p>\n<ul>\n<li>a <code>refund</code></li>\n<li>a credit<ol><li>first</li><li>second</li></ol></li>\n</ul>\n<p>After.</p>",
      "Either:\n\n- a `refund`\n- a credit\n  1. first\n  2. second\n\nAfter.",
    ],
    ["pre keeps its lines; entities are decoded in code", "<pre><code>{\n  &quot;a&quot;: &lt;b&gt;\n}</code></pre>", "```\n{\n  \"a\": <b>\n}\n```"],
    ["code with a backtick gets a longer fence", "<code>a`b</code>", "``a`b``"],
    ["entities in text; a decoded `<` that would read as a tag stays an entity", "<p>&quot;x&quot; &amp; y &#8212; &lt;div&gt; &lt; 3</p>", '"x" & y — &lt;div> < 3'],
    ["unsafe link targets lose the link, keep the text", '<a href="javascript:alert(1)">click</a> <a href=" JaVaScRiPt:x">this</a>', "click this"],
    ["link targets with spaces or parentheses are wrapped", "<a href='https://x.test/a (b)'>docs</a>", "[docs](<https://x.test/a (b)>)"],
    ["HTML inside a Markdown code span is an example, not markup", "Wrap it in `<p>` tags: <p>like this</p>", "Wrap it in `<p>` tags:\n\nlike this"],
    ["a comment terminator stays text (escaped where the JSDoc is written)", "<p>ends */ here</p>", "ends */ here"],
  ])("%s", (_name, html, markdown) => {
    expect(htmlToMarkdown(html)).toBe(markdown);
  });
});

describe("HTML descriptions in the output", () => {
  const SPEC = `openapi: 3.1.0
info: {title: Shop, version: '1', description: '<p>The <strong>shop</strong> API.</p>'}
servers:
  - url: https://{region}.shop.test
    variables:
      region: {default: eu, description: '<p>Where your data lives: <code>eu</code> or <code>us</code>.</p>'}
paths:
  /customers:
    post:
      operationId: createCustomer
      summary: Create a customer
      description: '<p>Creates a <a href="https://shop.test/docs/customers">customer</a>.</p><p>Closes a comment: <code>*/</code>.</p>'
      requestBody:
        content:
          application/json:
            schema: {$ref: '#/components/schemas/Customer'}
      responses:
        '200':
          description: '<p>The <em>new</em> customer.</p>'
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Customer'}
              example: {name: '<p>kept as data</p>'}
components:
  schemas:
    Customer:
      type: object
      description: '<p>A customer.</p><ul><li>has a <code>name</code></li><li>may have <b>metadata</b></li></ul>'
      properties:
        name: {type: string, description: '<p>Full name<br>as printed</p>', example: '<b>not markup</b>'}
        tier: {type: string, enum: ['<p>gold</p>', silver], default: '<p>gold</p>'}
        description: {type: string, description: '<p>A property called description.</p>'}
`;

  it("reach every JSDoc as Markdown (openapi-typescript's and specforge's), once, with */ still escaped; data is untouched", async () => {
    const project = tempDir();
    writeFiles(project, { "openapi.yaml": SPEC });
    const result = await runCli(["generate", "--spec", "openapi.yaml", "--out", "out"], project);
    expect(result.stderr).toBe("");
    const read = (file: string) => readFileSync(join(project, "out", file), "utf8");
    const client = read("client.ts");
    expect(client).toContain("Creates a [customer](https://shop.test/docs/customers).");
    expect(client).toContain("Closes a comment: `*\\/`.");
    expect(client).toContain("Where your data lives: `eu` or `us`.");
    const schema = read("schema.ts");
    expect(schema).toContain("@description A customer.\n     *\n     *     - has a `name`\n     *     - may have **metadata**");
    expect(schema).toContain("@description Full name\n       *     as printed");
    expect(schema).toContain("@description A property called description.");
    expect(schema).toContain("@description The *new* customer.");
    expect(schema).toContain('tier?: "<p>gold</p>" | "silver";');
    const server = read("server.ts");
    expect(server).toContain("<p>kept as data</p>");
    expect(server).toContain("<b>not markup</b>");
    // No tag is left outside the data (examples, defaults, enum values), which is the spec's own.
    for (const file of ["client.ts", "schema.ts", "server.ts"]) {
      const outsideData = read(file).replace(/<p>kept as data<\/p>|<b>not markup<\/b>|<p>gold<\/p>/g, "");
      expect(outsideData, file).not.toMatch(/<\/?(p|ul|li|a|strong|em|b|code)\b[^>]*>/);
    }
    expect((await typecheck(join(project, "out"))).output).toBe("");
  }, 120_000);
});
