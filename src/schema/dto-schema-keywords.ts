import {
  ARRAY_MAX_SIZE,
  ARRAY_MIN_SIZE,
  ARRAY_NOT_EMPTY,
  EQUALS,
  IS_ARRAY,
  IS_BOOLEAN,
  IS_DATE_STRING,
  IS_EMAIL,
  IS_ENUM,
  IS_IN,
  IS_INT,
  IS_ISO8601,
  IS_LENGTH,
  IS_NEGATIVE,
  IS_NOT_EMPTY,
  IS_NUMBER,
  IS_OBJECT,
  IS_POSITIVE,
  IS_STRING,
  IS_URL,
  IS_UUID,
  MATCHES,
  MAX,
  MAX_LENGTH,
  MIN,
  MIN_LENGTH,
  ValidationTypes,
} from 'class-validator';
import type { JsonSchema } from '../protocol/wire-types.js';
import type { ValidationRule } from './dto-metadata.js';

/** The JSON Schema `type` names a class-validator rule can pin down. */
export type JsonType = 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';

const DECLARED_TYPE: Readonly<Record<string, JsonType>> = {
  [IS_STRING]: 'string',
  [IS_NUMBER]: 'number',
  [IS_INT]: 'integer',
  [IS_BOOLEAN]: 'boolean',
  [IS_ARRAY]: 'array',
  [IS_OBJECT]: 'object',
};
// When two type rules are stacked (IsNumber + IsInt), the value must pass both: the narrower wins.
const TYPE_PRECEDENCE: readonly JsonType[] = ['integer', 'number', 'string', 'boolean', 'array', 'object'];

const FORMAT: Readonly<Record<string, string>> = {
  [IS_EMAIL]: 'email',
  [IS_URL]: 'uri',
  [IS_UUID]: 'uuid',
  // RFC 3339 date-time is a subset of what the validator accepts (ISO 8601), so every value a
  // client builds from the schema passes.
  [IS_DATE_STRING]: 'date-time',
  [IS_ISO8601]: 'date-time',
};

// Regex flags that JSON Schema's flagless `pattern` cannot express; with any of them, no pattern.
const UNEXPRESSIBLE_FLAGS = /[imsyv]/;

/**
 * The JSON Schema keywords implied by a set of class-validator rules on one value. Numbers keep
 * the tightest bound when rules overlap; an unknown rule contributes nothing.
 * @internal
 */
export interface SchemaDraft {
  type?: JsonType;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
}

/**
 * Reads `rules` (all applying to the same value) into a draft. `fallbackType` is the compiler's
 * `design:type`, used only when no rule decides the type.
 * @internal
 */
export function draftFromRules(rules: readonly ValidationRule[], fallbackType?: Function): SchemaDraft {
  const draft: SchemaDraft = {};
  const declared = new Set<JsonType>();
  let implied: JsonType | undefined;
  let notEmpty = false;

  for (const rule of rules) {
    const name = rule.type === ValidationTypes.CUSTOM_VALIDATION ? rule.name : rule.type;
    if (name === undefined) continue;
    const args: readonly unknown[] = Array.isArray(rule.constraints) ? rule.constraints : [];
    const declaredType = DECLARED_TYPE[name];
    if (declaredType) {
      declared.add(declaredType);
      continue;
    }
    const format = FORMAT[name];
    if (format) {
      draft.format = format;
      implied ??= 'string';
      continue;
    }
    switch (name) {
      case MIN_LENGTH:
        draft.minLength = tighterMin(draft.minLength, args[0]);
        implied ??= 'string';
        break;
      case MAX_LENGTH:
        draft.maxLength = tighterMax(draft.maxLength, args[0]);
        implied ??= 'string';
        break;
      case IS_LENGTH:
        draft.minLength = tighterMin(draft.minLength, args[0]);
        draft.maxLength = tighterMax(draft.maxLength, args[1]);
        implied ??= 'string';
        break;
      case MATCHES: {
        const source = patternSource(args[0], args[1]);
        if (source !== undefined) draft.pattern = source;
        implied ??= 'string';
        break;
      }
      case IS_NOT_EMPTY:
        notEmpty = true;
        break;
      case MIN:
        draft.minimum = tighterMin(draft.minimum, args[0]);
        implied ??= 'number';
        break;
      case MAX:
        draft.maximum = tighterMax(draft.maximum, args[0]);
        implied ??= 'number';
        break;
      case IS_POSITIVE:
        draft.exclusiveMinimum = tighterMin(draft.exclusiveMinimum, 0);
        implied ??= 'number';
        break;
      case IS_NEGATIVE:
        draft.exclusiveMaximum = tighterMax(draft.exclusiveMaximum, 0);
        implied ??= 'number';
        break;
      case ARRAY_MIN_SIZE:
        draft.minItems = tighterMin(draft.minItems, args[0]);
        implied ??= 'array';
        break;
      case ARRAY_MAX_SIZE:
        draft.maxItems = tighterMax(draft.maxItems, args[0]);
        implied ??= 'array';
        break;
      case ARRAY_NOT_EMPTY:
        draft.minItems = tighterMin(draft.minItems, 1);
        implied ??= 'array';
        break;
      case IS_IN:
        restrictEnum(draft, Array.isArray(args[0]) ? args[0] : []);
        break;
      case IS_ENUM:
        restrictEnum(draft, enumValues(args[0]));
        break;
      case EQUALS:
        if (isPrimitiveJson(args[0])) draft.const = args[0];
        break;
      default:
        break; // a rule JSON Schema cannot express: the validator still enforces it
    }
  }

  draft.type =
    TYPE_PRECEDENCE.find((t) => declared.has(t)) ?? implied ?? enumType(draft.enum) ?? designJsonType(fallbackType);
  if (notEmpty && draft.type === 'string') draft.minLength = tighterMin(draft.minLength, 1);
  return draft;
}

/** The draft as schema keywords, in a stable, readable order. @internal */
export function renderDraft(draft: SchemaDraft): JsonSchema {
  const schema: JsonSchema = {};
  for (const key of DRAFT_KEYS) {
    if (draft[key] !== undefined) schema[key] = draft[key];
  }
  return schema;
}

const DRAFT_KEYS: readonly (keyof SchemaDraft)[] = [
  'type',
  'format',
  'enum',
  'const',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'exclusiveMinimum',
  'maximum',
  'exclusiveMaximum',
  'minItems',
  'maxItems',
];

/**
 * The values an `@IsEnum()` enum admits, as class-validator lists them in its message: a numeric
 * enum's reverse-mapping keys ('0', '1', ...) are not values.
 * @internal
 */
export function enumValues(entity: unknown): unknown[] {
  if (entity === null || typeof entity !== 'object') return [];
  return Object.entries(entity)
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value as unknown);
}

function restrictEnum(draft: SchemaDraft, values: readonly unknown[]): void {
  const unique: unknown[] = [...new Set(values.filter(isPrimitiveJson))];
  draft.enum = draft.enum === undefined ? unique : draft.enum.filter((value) => unique.includes(value));
}

function enumType(values: readonly unknown[] | undefined): JsonType | undefined {
  if (!values || values.length === 0) return undefined;
  if (values.every((v) => typeof v === 'string')) return 'string';
  if (values.every((v) => typeof v === 'boolean')) return 'boolean';
  if (values.every((v) => Number.isInteger(v))) return 'integer';
  if (values.every((v) => typeof v === 'number')) return 'number';
  return undefined; // mixed: `enum` alone says it all
}

function designJsonType(type: Function | undefined): JsonType | undefined {
  switch (type) {
    case String:
      return 'string';
    case Number:
      return 'number';
    case Boolean:
      return 'boolean';
    case Array:
      return 'array';
    default:
      return undefined; // Object (any, unions), Date, classes: nothing the JSON value can be said to be
  }
}

function patternSource(pattern: unknown, modifiers: unknown): string | undefined {
  if (pattern instanceof RegExp) {
    return UNEXPRESSIBLE_FLAGS.test(pattern.flags) ? undefined : pattern.source;
  }
  if (typeof pattern !== 'string') return undefined;
  if (typeof modifiers === 'string' && UNEXPRESSIBLE_FLAGS.test(modifiers)) return undefined;
  return pattern;
}

function tighterMin(current: number | undefined, candidate: unknown): number | undefined {
  if (typeof candidate !== 'number' || !Number.isFinite(candidate)) return current;
  return current === undefined ? candidate : Math.max(current, candidate);
}

function tighterMax(current: number | undefined, candidate: unknown): number | undefined {
  if (typeof candidate !== 'number' || !Number.isFinite(candidate)) return current;
  return current === undefined ? candidate : Math.min(current, candidate);
}

function isPrimitiveJson(value: unknown): value is string | number | boolean | null {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}
