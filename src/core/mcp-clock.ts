/**
 * The module's time source (requestState and session lifetimes, task timestamps). Internal: not
 * exported from the package; a test replaces it with `overrideProvider(McpClock)`.
 */
export abstract class McpClock {
  /** Milliseconds since the Unix epoch. */
  abstract now(): number;
}

/** The wall clock. Nodes that share requestState keys should keep their clocks in sync (NTP). */
export class SystemClock extends McpClock {
  now(): number {
    return Date.now();
  }
}
