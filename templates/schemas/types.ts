/**
 * Public types of the schemas runtime: the Standard Schema v1 interface (https://standardschema.dev), declared here
 * structurally so that the generated code imports nothing (a value of these types is a `StandardSchemaV1` of
 * `@standard-schema/spec` to any library that takes one), the spec's schemas as such objects (`SpecSchema`), and
 * the type helpers that name what openapi-typescript declares for each part of an operation.
 */

/** The Standard Schema interface: what tRPC, TanStack Form, React Hook Form, Hono's validator and others accept. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown, options?: StandardSchemaOptions | undefined) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
  /** Types only: what `StandardSchemaV1.InferInput` and `InferOutput` read. */
  readonly types?: StandardSchemaTypes<Input, Output> | undefined;
}

/** The options a Standard Schema consumer may pass to `validate`. */
export interface StandardSchemaOptions {
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The input and output types of a Standard Schema. */
export interface StandardSchemaTypes<Input = unknown, Output = Input> {
  readonly input: Input;
  readonly output: Output;
}

/** What `validate` answers: the value, or the issues found (never both). */
export type StandardSchemaResult<Output> = StandardSchemaSuccess<Output> | StandardSchemaFailure;

export interface StandardSchemaSuccess<Output> {
  readonly value: Output;
  readonly issues?: undefined;
}

export interface StandardSchemaFailure {
  readonly issues: readonly StandardSchemaIssue[];
}

/** One problem found: a message, and where it is (object keys and array indexes from the value's root). */
export interface StandardSchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | StandardSchemaPathSegment)[] | undefined;
}

export interface StandardSchemaPathSegment {
  readonly key: PropertyKey;
}

/**
 * A schema of the spec as a Standard Schema whose output is `T`, the type openapi-typescript gives it. `validate`
 * answers synchronously, with the value itself when it is valid (nothing is coerced), or a copy with the `default`s
 * it lacks filled in for a request part (as the router fills them in).
 *
 * The other members are what the runtime compiles the schema from, in the generated module: its JSON text as the
 * spec writes it (`$ref`s and all), where the spec's other schemas `$ref` it (`at`), the schemas it `$ref`s
 * (`refs`), and which side of an exchange it checks (`use`).
 */
export interface SpecSchema<T> extends StandardSchemaV1<T, T> {
  readonly "~standard": SpecSchemaProps<T>;
  /** The schema's JSON text. */
  readonly json: string;
  /** The JSON pointer the spec's `$ref`s name it by (a component schema's), if any. */
  readonly at?: string | undefined;
  /** The schemas its `$ref`s (and discriminator mappings) name. */
  readonly refs?: (() => readonly SpecSchema<unknown>[]) | undefined;
  /**
   * How it checks: `request`, as the router checks a request (`readOnly` properties are not expected, and not
   * checked); `response`, as a response (`writeOnly` properties likewise); without, as JSON Schema does (both
   * are annotations).
   */
  readonly use?: "request" | "response" | undefined;
  /** The patterns in it that backtrack catastrophically (they run on the linear-time matcher), if any. */
  readonly slow?: readonly string[] | undefined;
}

/** The `~standard` property of a `SpecSchema`: its `validate` answers synchronously (a Standard Schema may not). */
export interface SpecSchemaProps<T> extends StandardSchemaProps<T, T> {
  readonly vendor: "specforge";
  readonly validate: (value: unknown, options?: StandardSchemaOptions | undefined) => StandardSchemaResult<T>;
}

/** The Standard Schemas of one operation's parts, where the operation has them. */
export interface OperationSchemas {
  readonly path?: StandardSchemaV1;
  readonly query?: StandardSchemaV1;
  readonly headers?: StandardSchemaV1;
  readonly cookies?: StandardSchemaV1;
  readonly body?: StandardSchemaV1;
  /** By status as the spec writes it: `200`, `4XX`, `default`. */
  readonly responses?: { readonly [status: string]: StandardSchemaV1 };
}

/** A group of parameters as openapi-typescript declares it (`path`, `query`, `header`, `cookie`). */
export type ParametersOf<Op, In extends string> = Op extends { parameters: infer P } ? (In extends keyof P ? NonNullable<P[In]> : never) : never;

/** The request body of media type `M` as openapi-typescript declares it. */
export type RequestBodyOf<Op, M extends string> = Op extends { requestBody?: infer B } ? (NonNullable<B> extends { content: infer C } ? (M extends keyof C ? C[M] : never) : never) : never;

/** The body of response `S` in media type `M` as openapi-typescript declares it. */
export type ResponseBodyOf<Op, S extends string | number, M extends string> = Op extends { responses: infer R }
  ? S extends keyof R
    ? R[S] extends { content: infer C }
      ? M extends keyof C
        ? C[M]
        : never
      : never
    : never
  : never;
