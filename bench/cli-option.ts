/** `--name value` from the command line: a number with a fallback, or a string (undefined when absent). */
export function option(name: string, fallback: number): number;
export function option(name: string): string | undefined;
export function option(name: string, fallback?: number): number | string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? undefined : process.argv[at + 1];
  if (fallback === undefined) return value;
  return value === undefined ? fallback : Number(value);
}
