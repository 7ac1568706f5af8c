/** Whether an option value is a positive whole number (every count, size and duration option). */
export const positiveInteger = (value: unknown): boolean => Number.isInteger(value) && (value as number) > 0;

/** Checks each of `keys` of `section` (named `prefix.key` in the problem) is a positive integer when set. */
export function checkPositiveIntegers<T extends object>(
  section: T,
  keys: readonly (keyof T & string)[],
  prefix: string,
  problems: string[],
): void {
  for (const key of keys) {
    if (section[key] !== undefined && !positiveInteger(section[key])) {
      problems.push(`\`${prefix}${key}\` must be a positive integer`);
    }
  }
}
