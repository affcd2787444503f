/**
 * `in: querystring` parameters (OpenAPI 3.2): the whole query string is one value of a media type. A form
 * (`application/x-www-form-urlencoded`) is decoded like a form body, by its Encoding Objects; JSON is
 * percent-decoded and parsed (depth-limited, no prototypes); any other media type is the percent-decoded text.
 * The value is then validated against the parameter's schema, at location `["querystring"]`.
 */
import { compileFormDecoder, parseUrlEncoded } from "./form.js";
import { parseClientJson } from "./json.js";
import type { ValidationIssue } from "./schema.js";
import type { QuerystringParamSpec } from "./types.js";
import type { SchemaCompiler } from "./validate.js";

/** Reads the query string (without `?`, as sent) into the parameter's value; problems go to `errors`. */
export type QuerystringDecoder = (search: string, errors: ValidationIssue[]) => unknown;

const LOC = "querystring";

export function compileQuerystring(spec: QuerystringParamSpec, compiler: SchemaCompiler): QuerystringDecoder {
  const schema = spec.schema ?? true;
  const check = compiler.compile(schema, "request");
  const essence = spec.contentType.split(";", 1)[0]!.trim().toLowerCase();
  const json = essence === "application/json" || essence.endsWith("+json");
  const form = essence === "application/x-www-form-urlencoded" ? compileFormDecoder(schema, spec.encoding, compiler.document, [LOC]) : undefined;
  return (search, errors) => {
    if (search === "") {
      if (spec.required) errors.push({ loc: [LOC], msg: "Field required", type: "missing" });
      return undefined;
    }
    const before = errors.length;
    let value: unknown;
    if (form) {
      const fields = parseUrlEncoded(search, [LOC], errors);
      if (fields === undefined) return undefined;
      value = form(fields, errors);
    }
    else {
      let text: string;
      try {
        text = decodeURIComponent(search);
      } catch {
        errors.push({ loc: [LOC], msg: "Invalid percent-encoding", type: "value_error" });
        return undefined;
      }
      if (json) {
        const parsed = parseClientJson(text, compiler.maxDepth);
        if (!parsed.ok) {
          errors.push({ loc: [LOC], msg: parsed.tooDeep ? `JSON is nested more than ${compiler.maxDepth} levels deep` : "JSON decode error", type: parsed.tooDeep ? "too_deep" : "json_invalid" });
          return undefined;
        }
        value = parsed.value;
      } else value = text;
    }
    if (errors.length > before) return undefined;
    check(value, [LOC], errors);
    return value;
  };
}
