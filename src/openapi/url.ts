/** True for an http(s) URL: a spec or `$ref` target fetched over the network instead of read from disk. */
export function isHttpUrl(text: string): boolean {
  return /^https?:\/\//i.test(text);
}

/** `https://api.example.com:8443` for any URL of that origin (scheme, host and port, as fetch compares them). */
export function originOf(url: string): string {
  return new URL(url).origin;
}
