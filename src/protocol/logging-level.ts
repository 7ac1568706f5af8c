import type { LoggingLevel } from './wire-types.js';

/** The syslog severities MCP logging uses, least severe first. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = Object.freeze([
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
]);

const LEVELS: ReadonlySet<string> = new Set(LOGGING_LEVELS);

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && LEVELS.has(value);
}
