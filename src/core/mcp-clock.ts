/**
 * The time source of the requestState TTL checks. A token: replace it (e.g. with a fixed clock in
 * tests, or a monotonic-corrected one) without touching the codec.
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
