// The options of each kind of field a RequestedSchemaBuilder adds (what `string`, `integer`,
// `choose`... take).

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

export interface ChooseOptions<V extends string = string> extends FieldOptions {
  default?: V;
  /**
   * How titled choices are sent: `'oneOf'` (default, `oneOf` of `{ const, title }`) or the deprecated
   * `'enumNames'` form (`enum` plus a parallel `enumNames`), for clients that predate titled `oneOf`.
   */
  titleStyle?: 'oneOf' | 'enumNames';
}

export interface ChooseManyOptions<V extends string = string> extends FieldOptions {
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
