import { describe, expect, it } from "vitest";
import { bypassed, proxiesFromEnv, proxyFor } from "../../src/load/remote-proxy-env.js";

describe("NO_PROXY entries, as curl reads them", () => {
  const cases: Array<[entry: string, url: string, bypass: boolean]> = [
    ["*", "https://api.vendor.example/openapi.yaml", true],
    ["vendor.example", "https://vendor.example/x", true],
    ["vendor.example", "https://api.vendor.example/x", true],
    ["vendor.example", "https://notvendor.example/x", false],
    [".vendor.example", "https://api.vendor.example/x", true],
    [".vendor.example", "https://vendor.example/x", true],
    ["*.vendor.example", "https://api.vendor.example/x", true],
    ["vendor.example:8443", "https://vendor.example:8443/x", true],
    ["vendor.example:8443", "https://vendor.example/x", false],
    ["vendor.example:443", "https://vendor.example/x", true],
    ["VENDOR.example", "https://vendor.EXAMPLE./x", true],
    ["10.0.0.1", "http://10.0.0.1/x", true],
    ["0.0.1", "http://10.0.0.1/x", false],
    ["::1", "http://[::1]:8080/x", true],
    ["[::1]:8080", "http://[::1]:8080/x", true],
    ["[::1]:9090", "http://[::1]:8080/x", false],
  ];
  it.each(cases)("%s for %s: %s", (entry, url, bypass) => {
    expect(bypassed(new URL(url), proxiesFromEnv({ NO_PROXY: entry }).noProxy)).toBe(bypass);
  });
});

describe("the proxy of a URL", () => {
  it("takes https_proxy for https and http_proxy for http, lower case first, an empty value as unset", () => {
    const env = { https_proxy: "http://lower:1", HTTPS_PROXY: "http://upper:1", http_proxy: "", HTTP_PROXY: "proxy.corp:3128" };
    expect(proxyFor("https://a.example/x", proxiesFromEnv(env))).toMatchObject({ variable: "https_proxy", shown: "http://lower:1" });
    // Without a scheme, an http proxy, as curl reads it.
    expect(proxyFor("http://a.example/x", proxiesFromEnv(env))).toMatchObject({ variable: "HTTP_PROXY", shown: "http://proxy.corp:3128" });
    expect(proxyFor("http://a.example/x", proxiesFromEnv({ https_proxy: "http://p:1" }))).toBeUndefined();
  });

  it("never shows the proxy's credentials", () => {
    expect(proxyFor("https://a.example/x", proxiesFromEnv({ HTTPS_PROXY: "http://jane:hunter2@proxy.corp:3128" }))!.shown).toBe("http://proxy.corp:3128");
  });
});
