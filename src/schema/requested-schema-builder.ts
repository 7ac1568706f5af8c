import type { PrimitiveSchemaDefinition, RequestedSchema } from '../protocol/wire-types.js';
import { copyJson, count, finite, ordered, STRING_FORMATS } from './requested-schema-field-checks.js';

declare const contentType: unique symbol;

/**
 * Builds the `requestedSchema` of a form elicitation. It can only express what the spec allows (a
 * flat object of strings, numbers, booleans and single/multi-select enums), so a handler cannot ask
 * a question clients are not required to render. Each call adds one field and widens the inferred
 * answer type: `b.string('name').integer('age', { optional: true })` answers
 * `{ name: string; age?: number }`.
 *
 * Fields are required unless `optional: true`. Mistakes a client could never satisfy (a default
 * outside the choices, `minLength` above `maxLength`, a duplicate field) throw at once.
 *
 * @publicApi
 */
export class RequestedSchemaBuilder<T = {}> {
  /** Carries the answer type; never set at run time. */
  declare readonly [contentType]?: T;
  private readonly fields = new Map<string, PrimitiveSchemaDefinition>();
  private readonly requiredNames: string[] = [];

  /** A free-text field, optionally constrained in length or format. */
  string<N extends string, const O extends RequestedSchemaBuilder.StringFieldOptions = {}>(
    name: N,
    options?: O,
  ): RequestedSchemaBuilder.Next<T, N, string, O> {
    const o: RequestedSchemaBuilder.StringFieldOptions = options ?? {};
    const min = count(o.minLength, 'minLength', name);
    const max = count(o.maxLength, 'maxLength', name);
    ordered(min, max, 'minLength', 'maxLength', name);
    if (o.format !== undefined && !STRING_FORMATS.has(o.format)) {
      throw new Error(`Field "${name}": format must be one of ${[...STRING_FORMATS].join(', ')}`);
    }
    if (o.default !== undefined) {
      if (typeof o.default !== 'string') throw new Error(`Field "${name}": default must be a string`);
      const length = [...o.default].length;
      if ((min !== undefined && length < min) || (max !== undefined && length > max)) {
        throw new Error(`Field "${name}": the default does not satisfy minLength/maxLength`);
      }
    }
    return this.add(name, o, {
      type: 'string',
      title: o.title,
      description: o.description,
      minLength: min,
      maxLength: max,
      format: o.format,
      default: o.default,
    });
  }

  /** A number field (fractions allowed). */
  number<N extends string, const O extends RequestedSchemaBuilder.NumberFieldOptions = {}>(
    name: N,
    options?: O,
  ): RequestedSchemaBuilder.Next<T, N, number, O> {
    return this.numeric('number', name, options ?? {});
  }

  /** A whole-number field. */
  integer<N extends string, const O extends RequestedSchemaBuilder.NumberFieldOptions = {}>(
    name: N,
    options?: O,
  ): RequestedSchemaBuilder.Next<T, N, number, O> {
    return this.numeric('integer', name, options ?? {});
  }

  /** A yes/no field. */
  boolean<N extends string, const O extends RequestedSchemaBuilder.BooleanFieldOptions = {}>(
    name: N,
    options?: O,
  ): RequestedSchemaBuilder.Next<T, N, boolean, O> {
    const o: RequestedSchemaBuilder.BooleanFieldOptions = options ?? {};
    if (o.default !== undefined && typeof o.default !== 'boolean') {
      throw new Error(`Field "${name}": default must be a boolean`);
    }
    return this.add(name, o, { type: 'boolean', title: o.title, description: o.description, default: o.default });
  }

  /** A single choice among fixed values (untitled `enum`, or `oneOf` with titles). */
  choose<N extends string, const V extends string, const O extends ChooseOptions<NoInfer<V>> = {}>(
    name: N,
    values: readonly V[],
    options?: O,
  ): RequestedSchemaBuilder.Next<T, N, V, O>;
  choose<
    N extends string,
    const M extends Readonly<Record<string, string>>,
    const O extends ChooseOptions<NoInfer<Extract<keyof M, string>>> = {},
  >(name: N, values: M, options?: O): RequestedSchemaBuilder.Next<T, N, Extract<keyof M, string>, O>;
  choose(name: string, values: ChoiceValues, options?: ChooseOptions): RequestedSchemaBuilder<unknown> {
    const o: ChooseOptions = options ?? {};
    const choices = readChoices(values, name);
    if (o.default !== undefined && !choices.some((c) => c.value === o.default)) {
      throw new Error(`Field "${name}": default "${String(o.default)}" is not one of the choices`);
    }
    const list = choices.every((c) => c.title === undefined)
      ? { enum: choices.map((c) => c.value) }
      : o.titleStyle === 'enumNames'
        ? { enum: choices.map((c) => c.value), enumNames: choices.map((c) => c.title ?? c.value) }
        : { oneOf: choices.map((c) => ({ const: c.value, title: c.title })) };
    return this.add(name, o, { type: 'string', ...describe(o), ...list, default: o.default });
  }

  /** Several choices among fixed values (`items.enum`, or `items.anyOf` with titles). */
  chooseMany<N extends string, const V extends string, const O extends ChooseManyOptions<NoInfer<V>> = {}>(
    name: N,
    values: readonly V[],
    options?: O,
  ): RequestedSchemaBuilder.Next<T, N, V[], O>;
  chooseMany<
    N extends string,
    const M extends Readonly<Record<string, string>>,
    const O extends ChooseManyOptions<NoInfer<Extract<keyof M, string>>> = {},
  >(name: N, values: M, options?: O): RequestedSchemaBuilder.Next<T, N, Array<Extract<keyof M, string>>, O>;
  chooseMany(name: string, values: ChoiceValues, options?: ChooseManyOptions): RequestedSchemaBuilder<unknown> {
    const o: ChooseManyOptions = options ?? {};
    const choices = readChoices(values, name);
    const min = count(o.minItems, 'minItems', name);
    const max = count(o.maxItems, 'maxItems', name);
    ordered(min, max, 'minItems', 'maxItems', name);
    if (min !== undefined && min > choices.length) {
      throw new Error(`Field "${name}": minItems is larger than the number of choices`);
    }
    let defaults: string[] | undefined;
    if (o.default !== undefined) {
      defaults = [...o.default];
      const known = new Set(choices.map((c) => c.value));
      if (
        !defaults.every((v) => known.has(v)) ||
        (min !== undefined && defaults.length < min) ||
        (max !== undefined && defaults.length > max)
      ) {
        throw new Error(`Field "${name}": the default must be choices within minItems/maxItems`);
      }
    }
    const items = choices.every((c) => c.title === undefined)
      ? { type: 'string', enum: choices.map((c) => c.value) }
      : { anyOf: choices.map((c) => ({ const: c.value, title: c.title })) };
    return this.add(name, o, {
      type: 'array',
      title: o.title,
      description: o.description,
      minItems: min,
      maxItems: max,
      items,
      default: defaults,
    });
  }

  /** The schema to send: a fresh copy on each call, `required` left out when nothing is required. */
  build(): RequestedSchema {
    const schema: RequestedSchema = {
      type: 'object',
      properties: Object.fromEntries([...this.fields].map(([name, definition]) => [name, copyJson(definition)])),
    };
    if (this.requiredNames.length > 0) schema.required = [...this.requiredNames];
    return schema;
  }

  private numeric<R>(type: 'number' | 'integer', name: string, o: RequestedSchemaBuilder.NumberFieldOptions): R {
    const min = finite(o.minimum, 'minimum', name);
    const max = finite(o.maximum, 'maximum', name);
    ordered(min, max, 'minimum', 'maximum', name);
    if (o.default !== undefined) {
      const ok =
        typeof o.default === 'number' &&
        (type === 'number' ? Number.isFinite(o.default) : Number.isInteger(o.default)) &&
        (min === undefined || o.default >= min) &&
        (max === undefined || o.default <= max);
      if (!ok)
        throw new Error(
          `Field "${name}": the default must be a${type === 'integer' ? 'n integer' : ' number'} within minimum/maximum`,
        );
    }
    return this.add(name, o, {
      type,
      title: o.title,
      description: o.description,
      minimum: min,
      maximum: max,
      default: o.default,
    });
  }

  private add<R>(name: string, options: RequestedSchemaBuilder.FieldOptions, definition: Record<string, unknown>): R {
    if (typeof name !== 'string' || name === '') throw new Error('A requested field needs a non-empty name');
    if (this.fields.has(name)) throw new Error(`Field "${name}" is defined twice`);
    // Copied without the undefined members rather than deleting them: `delete` would turn the
    // definition into a slow dictionary object, which every later copy and serialisation pays for.
    const defined: Record<string, unknown> = {};
    for (const key of Object.keys(definition)) if (definition[key] !== undefined) defined[key] = definition[key];
    this.fields.set(name, defined as PrimitiveSchemaDefinition);
    if (options.optional !== true) this.requiredNames.push(name);
    return this as unknown as R;
  }
}

// A namespace of types only, merged with the class: the options of each kind of field (what
// `string`, `integer`, `boolean` take) and the builder each call answers.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace RequestedSchemaBuilder {
  /**
   * The builder after one more field: the answer type `T` with `N: V` added, optional (`N?: V`)
   * when the field's options `O` make it so (`optional: true`, or `optional` given as a plain
   * boolean), and flattened into one object type so inferred answer types read naturally.
   */
  export type Next<T, N extends string, V, O> = (
    O extends { readonly optional: infer P }
      ? [P] extends [false]
        ? { [K in N]: V }
        : { [K in N]?: V }
      : 'optional' extends keyof O
        ? { [K in N]?: V }
        : { [K in N]: V }
  ) extends infer F
    ? RequestedSchemaBuilder<{ [K in keyof (T & F)]: (T & F)[K] } & {}>
    : never;

  /** Formats the spec lets a string field carry; clients may render a dedicated input for them. */
  export type StringFieldFormat = 'email' | 'uri' | 'date' | 'date-time';

  /** Options every field takes. A field is required unless `optional: true`. */
  export interface FieldOptions {
    title?: string;
    description?: string;
    optional?: boolean;
  }

  export interface StringFieldOptions extends FieldOptions {
    minLength?: number;
    maxLength?: number;
    format?: StringFieldFormat;
    default?: string;
  }

  export interface NumberFieldOptions extends FieldOptions {
    minimum?: number;
    maximum?: number;
    default?: number;
  }

  export interface BooleanFieldOptions extends FieldOptions {
    default?: boolean;
  }
}

export interface ChooseOptions<V extends string = string> extends RequestedSchemaBuilder.FieldOptions {
  default?: V;
  /**
   * How titled choices are sent: `'oneOf'` (default, `oneOf` of `{ const, title }`) or the deprecated
   * `'enumNames'` form (`enum` plus a parallel `enumNames`), for clients that predate titled `oneOf`.
   */
  titleStyle?: 'oneOf' | 'enumNames';
}

export interface ChooseManyOptions<V extends string = string> extends RequestedSchemaBuilder.FieldOptions {
  minItems?: number;
  maxItems?: number;
  default?: readonly V[];
}

/**
 * The choices of a select field: plain values (`['s', 'm', 'l']`, sent as `enum`), or value → title
 * (`{ s: 'Small', m: 'Medium' }`, sent as `oneOf` / `anyOf` of `{ const, title }`). Note that object
 * keys which look like integers are listed first by JavaScript; use an array for such values.
 */
export type ChoiceValues = readonly string[] | Readonly<Record<string, string>>;

interface Choice {
  value: string;
  title?: string;
}

function describe(o: RequestedSchemaBuilder.FieldOptions): { title?: string; description?: string } {
  return { title: o.title, description: o.description };
}

function readChoices(values: ChoiceValues, name: string): Choice[] {
  const choices: Choice[] = Array.isArray(values)
    ? (values as readonly string[]).map((value) => ({ value }))
    : Object.entries(values as Record<string, string>).map(([value, title]) => ({ value, title }));
  if (choices.length === 0) throw new Error(`Field "${name}" needs at least one choice`);
  const seen = new Set<string>();
  for (const c of choices) {
    if (typeof c.value !== 'string' || (c.title !== undefined && typeof c.title !== 'string')) {
      throw new Error(`Field "${name}": choices and their titles must be strings`);
    }
    if (seen.has(c.value)) throw new Error(`Field "${name}": the choice "${c.value}" appears twice`);
    seen.add(c.value);
  }
  return choices;
}
