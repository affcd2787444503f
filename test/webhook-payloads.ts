import { Ajv2020 } from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import yaml from "js-yaml";

/**
 * An independent check (ajv, not specforge's validator) that a webhook body is what the spec's schema for that
 * webhook accepts: each webhook's JSON request-body schema is compiled by its JSON pointer in the whole document.
 */
export function webhookBodyValidator(specPath: string): (key: string, body: unknown) => string[] {
  const text = readFileSync(specPath, "utf8");
  const document = (specPath.endsWith(".json") ? JSON.parse(text) : yaml.load(text)) as Record<string, any>;
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
  ajv.addSchema({ ...document, $id: "spec" });
  const cache = new Map<string, ReturnType<typeof ajv.compile>>();
  return (key, body) => {
    let validate = cache.get(key);
    if (!validate) {
      const content = document.webhooks[key].post.requestBody.content as Record<string, unknown>;
      const media = Object.keys(content).find((type) => /json/i.test(type)) ?? Object.keys(content)[0]!;
      const pointer = ["webhooks", key, "post", "requestBody", "content", media, "schema"].map((t) => t.replace(/~/g, "~0").replace(/\//g, "~1"));
      validate = ajv.compile({ $ref: `spec#/${pointer.map(encodeURIComponent).join("/")}` });
      cache.set(key, validate);
    }
    return validate(body) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
}
