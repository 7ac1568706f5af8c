import type { McpClock } from '../core/mcp-clock.js';

/**
 * Ids of 2025-era sessions this node refuses (404) although their sealed ids are still valid: ended
 * (DELETE, or past `limits.maxSessionsPerCaller`), or whose state was dropped to make room. Each is
 * kept for a session's lifetime (after that the sealed id has expired anyway), and at most `max` of
 * them (the oldest go first). An id forgotten to stay within `max` is still valid, so what was
 * forgotten is remembered as a time instead: see {@link mayHaveForgotten}.
 */
export class RefusedSessionIds {
  /** Session id → when it was refused, oldest first. */
  private readonly since = new Map<string, number>();
  /** When the newest of the ids forgotten while still valid was refused. */
  private forgottenUpTo = -Infinity;

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

  /**
   * Whether a session issued at `issuedAt` may be one whose refusal was forgotten to stay within
   * `max`: any session issued before the newest such refusal may be, so one that has no state here
   * is refused too (its client initializes again) rather than served with a blank state.
   */
  mayHaveForgotten(issuedAt: number): boolean {
    return issuedAt <= this.forgottenUpTo;
  }

  private prune(): void {
    const oldest = this.clock.now() - this.ttlMs;
    for (const [id, at] of this.since) {
      if (at >= oldest && this.since.size <= this.max) return;
      if (at >= oldest) this.forgottenUpTo = at;
      this.since.delete(id);
    }
  }
}
