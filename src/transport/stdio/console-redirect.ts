import { Console } from 'node:console';

/** The console methods Node writes to stdout. */
const STDOUT_METHODS = [
  'log',
  'info',
  'debug',
  'dir',
  'dirxml',
  'table',
  'count',
  'countReset',
  'time',
  'timeLog',
  'timeEnd',
  'group',
  'groupCollapsed',
  'groupEnd',
] as const;

type StdoutMethod = (typeof STDOUT_METHODS)[number];

/**
 * Points the console methods that print to stdout at stderr, so a stray `console.log` in a tool or
 * a library cannot corrupt the protocol stream. Returns the function that puts them back.
 * (Direct `process.stdout.write` calls cannot be caught this way.)
 */
export function redirectConsoleToStderr(): () => void {
  const stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });
  const target = console as unknown as Record<StdoutMethod, unknown>;
  const source = stderrConsole as unknown as Record<StdoutMethod, unknown>;
  const saved = new Map<StdoutMethod, unknown>();
  for (const method of STDOUT_METHODS) {
    saved.set(method, target[method]);
    target[method] = source[method];
  }
  let restored = false;
  return () => {
    if (restored) return;
    restored = true;
    for (const [method, original] of saved) target[method] = original;
  };
}
