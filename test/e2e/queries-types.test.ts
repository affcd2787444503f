/**
 * The types of the `queries` and `msw` outputs, as a user's project compiles them: the options are accepted by
 * @tanstack/react-query's `useQuery`, `useInfiniteQuery` and `useMutation` (and its `queryOptions` helper) with the
 * client's data and error types, and `mswHandler.<operation>` takes only answers the spec declares. Every
 * `@ts-expect-error` line must fail to compile and everything else must compile, under TypeScript 5.9 and 7 with the
 * strictest common options.
 */
import { execFile } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, cleanupTempDirs } from "../helpers.js";
import { generatedFixture } from "./queries-fixture.js";

const CONSUMER = `import { useInfiniteQuery, useMutation, useQuery, useQueryClient, queryOptions } from "@tanstack/react-query";
import { setupServer } from "msw/node";
import { createClient, createMswHandlers, createQueries, mockFromSchema, mswHandler, type ApiError, type components } from "./generated/index.js";

type Pet = components["schemas"]["Pet"];
type Problem = components["schemas"]["Problem"];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(_: T) => undefined;

const queries = createQueries(createClient({ baseUrl: "http://localhost" }));

export function Pets() {
  const pet = useQuery(queries.getPet.queryOptions({ path: { petId: "1" } }));
  assert<Equal<typeof pet.data, Pet | undefined>>(true);
  if (pet.error && queries.getPet.isError(pet.error) && pet.error.status === 404) {
    const problem: Problem = pet.error.body;
    void problem;
  }
  const anyError: ApiError | Error | null = pet.error;
  void anyError;
  // The error type is the client's: declared ApiErrors, other ApiErrors, ConnectionError, TimeoutError.
  if (pet.error && "status" in pet.error) assert<Equal<typeof pet.error.status, number>>(true);

  const names = useQuery({ ...queries.listMyPets.queryOptions(), select: (pets) => pets.map((p) => p.name) });
  assert<Equal<typeof names.data, string[] | undefined>>(true);
  const helper = useQuery(queryOptions(queries.getPetStory.queryOptions({ path: { petId: "1" } })));
  assert<Equal<typeof helper.data, string | undefined>>(true);

  const infinite = queries.listPets.infiniteQueryOptions({ query: { limit: 10 } });
  const pages = useInfiniteQuery(infinite);
  const firstNames: string[] | undefined = pages.data?.pages.flatMap((page) => page.data.map((p) => p.name));
  void firstNames;
  // The page parameter is the cursor's type (TanStack types \`data.pageParams\` as unknown[] unless told).
  assert<Equal<typeof infinite.initialPageParam, string | undefined>>(true);
  assert<Equal<ReturnType<typeof infinite.getNextPageParam>, string | undefined>>(true);

  const queryClient = useQueryClient();
  const create = useMutation({
    ...queries.createPet.mutationOptions(),
    onSuccess: (created) => queryClient.invalidateQueries({ queryKey: queries.listPets.queryKey() }).then(() => created.id),
  });
  create.mutate({ body: { name: "Rex" } });
  assert<Equal<typeof create.data, Pet | undefined>>(true);
  const remove = useMutation(queries.deletePet.mutationOptions());
  remove.mutate({ path: { petId: "1" } });

  // @ts-expect-error: petId is required
  useQuery(queries.getPet.queryOptions({ path: {} }));
  // @ts-expect-error: getPet needs its input
  useQuery(queries.getPet.queryOptions());
  // @ts-expect-error: name is a string
  create.mutate({ body: { name: 1 } });
  // @ts-expect-error: a GET is no mutation
  queries.getPet.mutationOptions();
  // @ts-expect-error: getPet is not paginated
  queries.getPet.infiniteQueryOptions({ path: { petId: "1" } });
  // @ts-expect-error: the cursor is the infinite query's own
  queries.listPets.infiniteQueryOptions({ query: { after: "x" } });
  // @ts-expect-error: the data is a Pet, not a string
  const wrong: string | undefined = pet.data;
  return [wrong];
}

export const server = setupServer(
  ...createMswHandlers(),
  mswHandler.getPet({ status: 200, body: { id: "00000000-0000-4000-8000-000000000000", name: "Rex", born: "2020-01-01", chip: "AAAA" } }),
  mswHandler.getPet({ status: 404, body: { message: "no such pet" } }),
  mswHandler.getPet(({ params }) => ({ status: 404, body: { message: params.petId } })),
  mswHandler.getPet(async () => undefined),
  mswHandler.getPetStory({ status: 200, body: "Once upon a time" }),
  mswHandler.watchEvents({ status: 200, body: [{ type: "born", at: "2020-01-01T00:00:00Z" }] }),
  mswHandler.deletePet({ status: 204 }),
  // @ts-expect-error: getPet declares no 500
  mswHandler.getPet({ status: 500, body: { message: "boom" } }),
  // @ts-expect-error: a 404's body is a Problem
  mswHandler.getPet({ status: 404, body: { reason: "gone" } }),
  // @ts-expect-error: a 200's body is a Pet (born is missing)
  mswHandler.getPet({ status: 200, body: { id: "x", name: "Rex", chip: "AAAA" } }),
  // @ts-expect-error: a 204 has no body
  mswHandler.deletePet({ status: 204, body: { gone: true } }),
  // @ts-expect-error: the params of getPet are petId only
  mswHandler.getPet(({ params }) => ({ status: 404, body: { message: params.name } })),
  // @ts-expect-error: an event stream's body is its list of events
  mswHandler.watchEvents({ status: 200, body: { type: "born", at: "2020-01-01T00:00:00Z" } }),
  // A component's mock value is typed as the component.
  mswHandler.getPet({ status: 200, body: { ...mockFromSchema("Pet"), name: "Rex" } }),
);

const mocked = mockFromSchema("Pet", { variant: 2 });
assert<Equal<typeof mocked, Pet>>(true);
assert<Equal<ReturnType<typeof mockFromSchema<"Problem">>, Problem>>(true);
// @ts-expect-error: no component schema of that name
mockFromSchema("Nope");
const anything: unknown = mockFromSchema({ type: "string" });
void anything;
`;

const COMPILER_OPTIONS = {
  target: "ES2022",
  lib: ["ES2023", "DOM", "DOM.Iterable"],
  module: "NodeNext",
  moduleResolution: "NodeNext",
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  noEmit: true,
  types: ["node"],
  typeRoots: [join(ROOT, "node_modules", "@types")],
};

/** The project of each output form: the TypeScript modules (the default) and `.js` beside `.d.ts`. */
const projects: Record<"ts" | "js", string> = { ts: "", js: "" };

beforeAll(async () => {
  for (const form of ["ts", "js"] as const) {
    const project = dirname(await generatedFixture(undefined, form));
    writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(join(project, "consumer.ts"), CONSUMER);
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, files: ["consumer.ts"] }));
    projects[form] = project;
  }
}, 240_000);

afterAll(cleanupTempDirs);

function tsc(bin: string, project: string): Promise<string> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, "-p", project, "--pretty", "false"], { cwd: project, maxBuffer: 16 << 20 }, (_error, stdout, stderr) => resolve(stdout + stderr));
  });
}

describe("queries and msw types in a user's project", () => {
  for (const form of ["ts", "js"] as const) {
    it(`compile under TypeScript 5.9 (form ${form}): options accepted by useQuery/useInfiniteQuery/useMutation, wrong inputs and MSW answers refused`, async () => {
      expect(await tsc(join(ROOT, "node_modules", "typescript", "bin", "tsc"), projects[form])).toBe("");
    }, 120_000);

    it(`compile under TypeScript 7 (form ${form})`, async () => {
      expect(await tsc(join(ROOT, "node_modules", "typescript7", "bin", "tsc"), projects[form])).toBe("");
    }, 120_000);
  }
});
