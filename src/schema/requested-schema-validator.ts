import type { ElicitContentValue, PrimitiveSchemaDefinition, RequestedSchema } from '../protocol/wire-types.js';

/**
 * Checks an accepted form answer against the schema it answers, the way a server SHOULD before
 * trusting it: an object, every required field present, every value of the declared type, within
 * its bounds and among its choices. Formats are checked loosely (plausible, not RFC-exact).
 * Fields the schema does not know are ignored.
 */
export function validateElicitContent(schema: RequestedSchema, content: unknown): boolean {
  return sanitizeElicitContent(schema, content) !== undefined;
}

/**
 * Like {@link validateElicitContent}, but returns the answer the handler may see: only the fields
 * the schema declares (unknown ones dropped, `null` for an optional field dropped), or `undefined`
 * when the answer does not fit the schema.
 */
export function sanitizeElicitContent(
  schema: RequestedSchema,
  content: unknown,
): Record<string, ElicitContentValue> | undefined {
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return undefined;
  const input = content as Record<string, unknown>;
  const required = schema.required ?? [];
  const properties = schema.properties;
  const out: Record<string, ElicitContentValue> = {};
  for (const name of Object.keys(properties)) {
    const value = Object.hasOwn(input, name) ? input[name] : undefined;
    if (value === undefined || value === null) {
      if (required.includes(name)) return undefined;
      continue;
    }
    if (!fits(properties[name]!, value)) return undefined;
    const kept = (Array.isArray(value) ? [...value] : value) as ElicitContentValue;
    // A field may be called "__proto__": define it rather than assign (which would set the prototype).
    if (name === '__proto__') {
      Object.defineProperty(out, name, { value: kept, enumerable: true, writable: true, configurable: true });
    } else {
      out[name] = kept;
    }
  }
  return out;
}

function fits(definition: PrimitiveSchemaDefinition, value: unknown): boolean {
  switch (definition.type) {
    case 'string':
      return typeof value === 'string' && fitsString(definition, value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && inRange(definition, value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) && inRange(definition, value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value) && fitsArray(definition, value);
    default:
      return false;
  }
}

function fitsString(definition: PrimitiveSchemaDefinition, value: string): boolean {
  if (!isChoice(definition, value)) return false;
  const { minLength, maxLength, format } = definition;
  if (typeof minLength === 'number' || typeof maxLength === 'number') {
    const length = codePoints(value);
    if (typeof minLength === 'number' && length < minLength) return false;
    if (typeof maxLength === 'number' && length > maxLength) return false;
  }
  return typeof format === 'string' ? fitsFormat(format, value) : true;
}

function fitsArray(definition: PrimitiveSchemaDefinition, value: unknown[]): boolean {
  const { minItems, maxItems } = definition;
  if (typeof minItems === 'number' && value.length < minItems) return false;
  if (typeof maxItems === 'number' && value.length > maxItems) return false;
  const items = (definition.items ?? {}) as Record<string, unknown>;
  return value.every((item) => typeof item === 'string' && isChoice(items, item));
}

/** Membership in `enum`, or in the `const`s of `oneOf` / `anyOf`; free text when none is given. */
function isChoice(definition: Record<string, unknown>, value: string): boolean {
  const { enum: values, oneOf, anyOf } = definition;
  if (Array.isArray(values)) return values.includes(value);
  const titled = Array.isArray(oneOf) ? oneOf : Array.isArray(anyOf) ? anyOf : undefined;
  if (titled !== undefined)
    return titled.some((c) => typeof c === 'object' && c !== null && (c as { const?: unknown }).const === value);
  return true;
}

function inRange(definition: PrimitiveSchemaDefinition, value: number): boolean {
  const { minimum, maximum } = definition;
  return !(typeof minimum === 'number' && value < minimum) && !(typeof maximum === 'number' && value > maximum);
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\S*$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

function fitsFormat(format: string, value: string): boolean {
  switch (format) {
    case 'email':
      return EMAIL.test(value);
    case 'uri':
      return URI_SCHEME.test(value) && URL.canParse(value);
    case 'date':
      return isDate(value);
    case 'date-time': {
      const m = DATE_TIME.exec(value);
      return (
        m !== null &&
        isDate(m[1]!) &&
        Number(m[2]) < 24 &&
        Number(m[3]) < 60 &&
        Number(m[4]) <= 60 &&
        (m[7] === undefined || (Number(m[7]) < 24 && Number(m[8]) < 60))
      );
    }
    default:
      return true; // a format we do not know is not ours to refuse
  }
}

function isDate(value: string): boolean {
  const m = DATE.exec(value);
  if (m === null) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function codePoints(value: string): number {
  let n = 0;
  for (const _ of value) n++;
  return n;
}
