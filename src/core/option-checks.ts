import { check, type OptionCheck } from './option-section.js';

/** Whether an option value is a positive whole number (every count, size and duration option). */
export const positiveInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;

/** A count, size or duration: a whole number above 0. */
export const POSITIVE_INTEGER: OptionCheck<number> = check(
  (value): value is number => positiveInteger(value),
  'must be a positive integer',
);

/** A whole number, 0 or more. */
export const NON_NEGATIVE_INTEGER: OptionCheck<number> = check(
  (value): value is number => Number.isInteger(value) && (value as number) >= 0,
  'must be an integer >= 0',
);

export const BOOLEAN: OptionCheck<boolean> = check(
  (value): value is boolean => typeof value === 'boolean',
  'must be a boolean',
);

export const STRING: OptionCheck<string> = check(
  (value): value is string => typeof value === 'string',
  'must be a string',
);

/** A non-empty string, after trimming. */
export const NON_EMPTY_STRING: OptionCheck<string> = check(
  (value): value is string => typeof value === 'string' && value.trim() !== '',
  'must be a non-empty string',
);

/** An array of non-empty strings. */
export const NON_EMPTY_STRINGS: OptionCheck<string[]> = check(
  (value): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== ''),
  'must be an array of non-empty strings',
);

/** One of `values` (the problem lists them). */
export function oneOf<const T extends string>(values: readonly T[]): OptionCheck<T> {
  return check(
    (value): value is T => values.includes(value as T),
    `must be ${values.map((v) => `'${v}'`).join(' or ')}`,
  );
}
