/**
 * The handlers and router options of the conformance suite (pets.yaml), on their own so that a real Next.js app can
 * import them too (test/e2e/adapters/next-server.test.ts): nothing here imports vitest or the project.
 */

/** What the handlers saw: the streams whose `request.signal` aborted, and the errors `onError` was told. */
export interface Observed {
  aborted: string[];
  errors: unknown[];
}

/** The router's body limit: small, so that 413s are cheap. */
export const MAX_BODY_BYTES = 2048;

/** The options of every router of the suite: its base path, the small body limit, a bearer token "good". */
export function routerOptions(observed: Observed, basePath: string): Record<string, unknown> {
  return {
    basePath,
    maxBodyBytes: MAX_BODY_BYTES,
    authenticate: ({ bearer }: { bearer: { token: string } }) => (bearer.token === "good" ? { user: "ann" } : null),
    onError: (error: unknown) => observed.errors.push(error),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The handlers of pets.yaml's operations (untyped: test/e2e/adapters/types.test.ts checks the generated types). */
export function handlers(observed: Observed): Record<string, (ctx: any) => unknown> {
  return {
    health: () => ({ status: 200, body: { status: "ok" } }),
    listPets: ({ query, auth }) => ({ status: 200, body: [{ id: 1, name: "Rex" }, { id: 2, name: `Fido of ${auth.user}`, tag: "dog" }].slice(0, query.limit ?? 10) }),
    createPet: ({ body }) => ({ status: 201, body: { id: 7, ...body }, headers: new Headers([["location", "/v1/pets/7"], ["set-cookie", "a=1; Path=/"], ["set-cookie", "b=2; Path=/"]]) }),
    getPet: ({ path }) => (path.petId === 1 ? { status: 200, body: { id: 1, name: "Rex" } } : { status: 404, body: { message: `no pet ${path.petId}` } }),
    uploadPhoto: async ({ body }) => ({ status: 201, body: { size: (await body.file.arrayBuffer()).byteLength, caption: body.caption, filename: body.file.name } }),
    createNote: ({ body }) => ({ status: 200, body: { text: body } }),
    submitForm: ({ body }) => ({ status: 200, body }),
    putBlob: ({ body }) => ({ status: 200, body: { size: body.byteLength } }),
    streamEvents: ({ query, request }) => {
      const id = request.headers.get("x-stream-id") ?? "";
      request.signal.addEventListener("abort", () => observed.aborted.push(id), { once: true });
      async function* events() {
        if (query.count !== undefined) {
          for (let n = 1; n <= query.count; n++) yield { n };
          return;
        }
        // Until the client goes away (bounded: the test fails if the signal never aborts).
        yield { n: 1 };
        for (let i = 0; i < 100 && !request.signal.aborted; i++) await sleep(50);
      }
      return { status: 200, stream: events() };
    },
  };
}

