/**
 * One option section, each field's meaning written once: the options interface a user writes
 * (`McpLimitsOptions`) carries each field's TSDoc, which states its default for the docs; the
 * section's table, `defineSection<McpLimitsOptions>()({ … })`, gives each field of that interface
 * its check and its default, and the compiler holds the table to exactly the interface's keys and
 * types. The section after defaults ({@link ResolvedSection}), the defaults ({@link sectionDefaults})
 * and the checks ({@link resolveSection}) derive from the table.
 */

/** A test of one option value, and the end of the problem reported when it fails ('must be …'). */
export interface OptionCheck<T> {
  readonly test: (value: unknown) => value is T;
  /** Completes "`limits.maxUriLength` …", e.g. 'must be a positive integer'. */
  readonly must: string;
}

/** Makes an {@link OptionCheck}. */
export const check = <T>(test: (value: unknown) => value is T, must: string): OptionCheck<T> => ({ test, must });

type FieldKind = 'optional' | 'required' | 'moved';

/**
 * One field of a section: `In` is what the user may write, `Out` what the resolved section holds.
 * Made by {@link option}, {@link optionWith}, {@link required}, {@link nested} or {@link movedTo}.
 */
export interface OptionField<In, Out, Kind extends FieldKind = FieldKind> {
  readonly kind: Kind;
  readonly check: OptionCheck<In>;
  /** The resolved value, from the value given (undefined when none, or when it failed its check). */
  readonly resolve: (value: In | undefined, path: string, problems: string[]) => Out;
  /** A required field: the problem reported when it is missing or fails its check. */
  readonly missing?: string;
  /** A deprecated spelling: where the option is now (`limits.maxSessions`), and what else to say. */
  readonly movedTo?: { readonly path: string; readonly note?: string };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any field, whatever its value types
type AnyField = OptionField<any, any>;

/** The fields of one section, by option name. */
export type SectionSpec = Readonly<Record<string, AnyField>>;

type InOf<F> = F extends { readonly check: OptionCheck<infer In> } ? In : never;
type OutOf<F> = F extends { readonly resolve: (...args: never[]) => infer Out } ? Out : never;
type KindOf<F> = F extends { readonly kind: infer Kind } ? Kind : never;

/**
 * What a section's table takes as input: the options a user writes, every field optional but the
 * required ones. Equal to the section's options interface (which {@link defineSection} enforces);
 * it types the value of a {@link nested} section.
 */
export type SectionOptions<S extends SectionSpec> = {
  [K in keyof S as KindOf<S[K]> extends 'required' ? K : never]: InOf<S[K]>;
} & {
  [K in keyof S as KindOf<S[K]> extends 'required' ? never : K]?: InOf<S[K]>;
};

/** A section after its defaults were applied: every field but the deprecated spellings. */
export type ResolvedSection<S extends SectionSpec> = {
  readonly [K in keyof S as KindOf<S[K]> extends 'moved' ? never : K]: OutOf<S[K]>;
};

/** The kinds of field a key of `I` may take: a required key a {@link required} field, an optional one any other. */
type KindsFor<I, K extends keyof I> = object extends Pick<I, K> ? 'optional' | 'moved' : 'required';

/**
 * The table of a section whose options a user writes as `I`: one field for each key of `I`, checking
 * exactly that key's type (resolved to whatever the field makes of it).
 */
export type SectionFields<I> = {
  readonly [K in keyof I]-?: OptionField<Exclude<I[K], undefined>, unknown, KindsFor<I, K>>;
};

/**
 * The table of the section whose options interface is `I`:
 * `defineSection<McpLimitsOptions>()({ maxBodyBytes: option(POSITIVE_INTEGER, 4 * 1024 * 1024), … })`.
 * It must give every key of `I` (a required key a `required` field) and no other, each field
 * checking the key's type; the table keeps its literal type, from which the resolved section derives.
 */
export const defineSection =
  <I extends object>() =>
  <const S extends SectionFields<I>>(fields: S & Record<Exclude<keyof S, keyof I>, never>): S =>
    fields;

/** An option with a default: the value given, else `fallback`. */
export function option<T>(check: OptionCheck<T>, fallback: NoInfer<T>): OptionField<T, T, 'optional'>;
/** An option without a default: the value given, else undefined. */
export function option<T>(check: OptionCheck<T>): OptionField<T, T | undefined, 'optional'>;
export function option<T>(check: OptionCheck<T>, fallback?: T): OptionField<T, T | undefined, 'optional'> {
  return { kind: 'optional', check, resolve: (value) => value ?? fallback };
}

/** An option whose resolved form differs from what the user writes: `shape(value given, else fallback)`. */
export function optionWith<T, Out>(
  check: OptionCheck<T>,
  fallback: NoInfer<T>,
  shape: (value: T) => Out,
): OptionField<T, Out, 'optional'>;
/** An option without a default whose resolved form differs from what the user writes: `shape(value given)`. */
export function optionWith<T, Out>(
  check: OptionCheck<T>,
  fallback: undefined,
  shape: (value: T | undefined) => Out,
): OptionField<T, Out, 'optional'>;
export function optionWith<T, Out>(
  check: OptionCheck<T>,
  fallback: T | undefined,
  shape: (value: T | undefined) => Out,
): OptionField<T, Out, 'optional'> {
  return { kind: 'optional', check, resolve: (value) => shape(value ?? fallback) };
}

/** An option the user must give; `missing` is the problem when it is absent or fails its check. */
export function required<T>(check: OptionCheck<T>, missing: string): OptionField<T, T, 'required'> {
  return { kind: 'required', check, missing, resolve: (value) => value as T };
}

const isObject = (value: unknown): value is object =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A section inside a section (`cache: nested(CACHE)`), resolved with its own defaults and checks. */
export function nested<S extends SectionSpec>(spec: S): OptionField<SectionOptions<S>, ResolvedSection<S>, 'optional'> {
  return {
    kind: 'optional',
    check: check((value): value is SectionOptions<S> => isObject(value), 'must be an object'),
    resolve: (value, path, problems) => resolveSection(spec, value, `${path}.`, problems),
  };
}

/**
 * A deprecated spelling of an option that moved (`to`, e.g. 'limits.maxSessions'): still checked
 * under its own name and honored there when the new spelling is not set (see `foldMovedOptions`),
 * absent from the resolved section. `note` is added to its startup warning.
 */
export function movedTo<T>(check: OptionCheck<T>, to: string, note?: string): OptionField<T, never, 'moved'> {
  return {
    kind: 'moved',
    check,
    movedTo: { path: to, ...(note !== undefined && { note }) },
    resolve: () => undefined as never,
  };
}

/**
 * Applies the defaults of `spec` to `raw` and checks every value given; each problem (named
 * `prefix` + field) is added to `problems`. Deprecated spellings are checked, not resolved.
 */
export function resolveSection<S extends SectionSpec>(
  spec: S,
  raw: unknown,
  prefix: string,
  problems: string[],
): ResolvedSection<S> {
  let given: Record<string, unknown> = {};
  if (isObject(raw)) given = raw as Record<string, unknown>;
  else if (raw !== undefined)
    problems.push(prefix ? `\`${prefix.slice(0, -1)}\` must be an object` : 'the options must be an object');
  const resolved: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(spec)) {
    const value = given[key];
    const valid = value !== undefined && field.check.test(value);
    if (field.missing !== undefined && !valid) problems.push(field.missing);
    else if (value !== undefined && !valid) problems.push(`\`${prefix}${key}\` ${field.check.must}`);
    if (field.kind !== 'moved') resolved[key] = field.resolve(valid ? value : undefined, `${prefix}${key}`, problems);
  }
  return resolved as ResolvedSection<S>;
}

/** The resolved section when nothing is given: every default (required fields left undefined). */
export function sectionDefaults<S extends SectionSpec>(spec: S): ResolvedSection<S> {
  return resolveSection(spec, undefined, '', []);
}
