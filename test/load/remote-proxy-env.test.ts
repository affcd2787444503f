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
    ["0:0::1", "http://[::1]/x", true],
  ];
  it.each(cases)("%s for %s: %s", (entry, url, bypass) => {
    expect(bypassed(new URL(url), proxiesFromEnv({ NO_PROXY: entry }).noProxy)).toBe(bypass);
  });
});

describe("CIDR ranges in NO_PROXY, as curl ≥ 7.86 matches them (only a URL whose host is an IP literal)", () => {
  const cases: Array<[entry: string, url: string, bypass: boolean]> = [
    ["10.0.0.0/8", "http://10.200.3.4/x", true],
    ["10.0.0.0/8", "http://11.0.0.1/x", false],
    ["192.168.1.0/24", "https://192.168.1.77:8443/x", true],
    ["192.168.1.0/24", "https://192.168.2.1/x", false],
    ["172.16.0.0/12", "http://172.31.255.255/x", true],
    ["172.16.0.0/12", "http://172.32.0.0/x", false],
    // The address's host bits need not be zero; the range is what the prefix keeps.
    ["192.168.1.99/24", "http://192.168.1.3/x", true],
    ["10.1.2.3/32", "http://10.1.2.3/x", true],
    ["10.1.2.3/32", "http://10.1.2.4/x", false],
    // WHATWG URL normalises the host first: 012.1 is 10.0.0.1.
    ["10.0.0.0/8", "http://012.1/x", true],
    ["fd00::/8", "http://[fd12:3456::1]/x", true],
    ["fd00::/8", "http://[fe80::1]/x", false],
    ["2001:db8::/32", "http://[2001:db8:ffff::1]:8080/x", true],
    ["2001:db8::/33", "http://[2001:db8:8000::1]/x", false],
    ["::1/128", "http://[::1]/x", true],
    // curl reads no prefix, or /0, as the whole address (not "every address").
    ["10.0.0.0/0", "http://10.0.0.1/x", false],
    ["10.0.0.1/0", "http://10.0.0.1/x", true],
    // A name is never resolved to match a range; a range never matches a name.
    ["127.0.0.0/8", "http://localhost/x", false],
    // The other family, more bits than the address has, or an address that does not parse: matches nothing.
    ["10.0.0.0/8", "http://[::ffff:10.0.0.1]/x", false],
    ["fd00::/8", "http://10.0.0.1/x", false],
    ["10.0.0.0/33", "http://10.0.0.1/x", false],
    ["fd00::/129", "http://[fd00::1]/x", false],
    ["10.0.0/8", "http://10.0.0.1/x", false],
    ["vendor.example/8", "http://10.0.0.1/x", false],
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
