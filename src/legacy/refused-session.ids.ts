import type { McpClock } from '../mrtr/mcp-clock.js';

/**
 * Ids of 2025-era sessions this node refuses (404) although their sealed ids are still valid: ended
 * (DELETE, or past `limits.maxSessionsPerCaller`), or whose state was dropped to make room. Each is
 * kept for a session's lifetime (after that the sealed id has expired anyway), and at most `max` of
 * them (the oldest go first).
 */
export class RefusedSessionIds {
  /** Session id → when it was refused, oldest first. */
  private readonly since = new Map<string, number>();

  constructor(
    private readonly clock: McpClock,
    /** `legacy.sessionTtlMs`. */
    private readonly ttlMs: number,
    private readonly max: number,
  ) {}

  has(id: string): boolean {
    return this.since.has(id);
  }

  /** Refuses `id` from now on. */
  add(id: string): void {
    this.since.set(id, this.clock.now());
    this.prune();
  }

  private prune(): void {
    const oldest = this.clock.now() - this.ttlMs;
    for (const [id, at] of this.since) {
      if (at >= oldest && this.since.size <= this.max) return;
      this.since.delete(id);
    }
  }
}
