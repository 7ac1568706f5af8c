// The Standard Schema v1 and Standard JSON Schema v1 interfaces (standardschema.dev), declared
// here as types only: the core depends on no schema library, and any value of this shape (zod 4,
// valibot, arktype, ...) is accepted structurally.

/**
 * A schema of any library that implements Standard Schema v1 (zod 4, valibot 1, arktype 2, ...),
 * as `@McpTool({ input, output })` takes it. Its parts are named as the Standard Schema spec names
 * them (`StandardSchemaV1.Props`, `StandardSchemaV1.Result`, ...).
 *
 * @publicApi
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

// A namespace of types only, merged with the interface, as the Standard Schema spec declares them.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace StandardSchemaV1 {
  /** The `~standard` properties of a Standard Schema v1 value. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the Standard Schema interface: 1. */
    readonly version: 1;
    /** The library's name (`'zod'`, `'valibot'`, ...). */
    readonly vendor: string;
    /** Checks a value: the value it answers, or its issues, possibly as a promise. */
    readonly validate: (
      value: unknown,
      options?: { readonly libraryOptions?: Record<string, unknown> | undefined } | undefined,
    ) => Result<Output> | Promise<Result<Output>>;
    /** Type-level only: the schema's input and output types. */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
    /** Present when the library also implements Standard JSON Schema v1. */
    readonly jsonSchema?: JSONSchemaConverter | undefined;
  }

  /** What a Standard Schema's `validate` answers: the (possibly transformed) value, or the issues. */
  export type Result<Output> =
    { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<Issue> };

  /**
   * One problem a Standard Schema found in a value: its message and, when it is not about the
   * value as a whole, the path to the offending part (keys, or segments that carry a key).
   */
  export interface Issue {
    /** What is wrong, as the library words it. */
    readonly message: string;
    /** Where, from the root of the value; absent for the value as a whole. */
    readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
  }

  /**
   * The Standard JSON Schema v1 converter a schema library may offer beside `validate`
   * (`~standard.jsonSchema`; zod 4 has it): JSON Schema of what the schema accepts (`input`) and
   * of what it produces (`output`), for a target such as `'draft-2020-12'`. Either may throw when
   * the schema has no JSON Schema equivalent.
   */
  export interface JSONSchemaConverter {
    /** JSON Schema of the values the schema accepts. */
    readonly input: (options: JSONSchemaOptions) => Record<string, unknown>;
    /** JSON Schema of the values the schema produces. */
    readonly output: (options: JSONSchemaOptions) => Record<string, unknown>;
  }

  /** The options of a Standard JSON Schema conversion. */
  export interface JSONSchemaOptions {
    /** The JSON Schema dialect to produce; this module asks for `'draft-2020-12'`. */
    readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | ({} & string);
    /** Options of the vendor's own. */
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
}

/** Whether `value` has the `~standard` properties of Standard Schema v1 (version 1, a vendor, a validate function). */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as { '~standard'?: unknown })['~standard'];
  if (typeof props !== 'object' || props === null) return false;
  const { version, vendor, validate } = props as Record<string, unknown>;
  return version === 1 && typeof vendor === 'string' && typeof validate === 'function';
}
