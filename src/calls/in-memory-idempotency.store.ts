import { McpClock, SystemClock } from '../core/mcp-clock.js';
import { type IdempotencyClaim, type IdempotentOutcome, McpIdempotencyStore } from './mcp-idempotency.store.js';

interface Entry {
  readonly fingerprint: string;
  /** Undefined while the call runs. */
  readonly outcome?: IdempotentOutcome;
  /** When the recorded outcome is dropped (ms epoch); running calls do not expire. */
  readonly expiresAt: number;
}

/** How long an ended call's outcome is kept, and how many are kept, by default. */
export const IDEMPOTENCY_RETENTION_MS = 60 * 60 * 1000;
export const IDEMPOTENCY_MAX_ENTRIES = 10_000;

/**
 * The default {@link McpIdempotencyStore}: keys in this process's memory, each ended call's outcome
 * kept for `retentionMs` (default an hour), at most `maxEntries` of them (the oldest go first;
 * running calls stay). Per node: behind a load balancer, a retry that reaches another node runs
 * again unless a shared store is used (`@mocapi/nestjs/redis`).
 */
export class InMemoryIdempotencyStore extends McpIdempotencyStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: McpClock = new SystemClock(),
    readonly retentionMs = IDEMPOTENCY_RETENTION_MS,
    private readonly maxEntries = IDEMPOTENCY_MAX_ENTRIES,
  ) {
    super();
  }

  /** How many keys are recorded or running. */
  get size(): number {
    return this.entries.size;
  }

  async claim(key: string, fingerprint: string): Promise<IdempotencyClaim> {
    const entry = this.entries.get(key);
    if (entry !== undefined) {
      if (entry.outcome === undefined) return { kind: 'running', fingerprint: entry.fingerprint };
      if (entry.expiresAt > this.clock.now()) {
        return { kind: 'recorded', fingerprint: entry.fingerprint, outcome: entry.outcome };
      }
      this.entries.delete(key);
    }
    this.entries.set(key, { fingerprint, expiresAt: Number.POSITIVE_INFINITY });
    return { kind: 'run' };
  }

  async settle(key: string, fingerprint: string, outcome: IdempotentOutcome | undefined): Promise<void> {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.outcome !== undefined || entry.fingerprint !== fingerprint) return;
    this.entries.delete(key);
    if (outcome === undefined) return;
    // A copy as the wire has it (what the handler returned may change later). Re-inserted, so the
    // map's order is the order in which outcomes were recorded.
    const kept = JSON.parse(JSON.stringify(outcome)) as IdempotentOutcome;
    this.entries.set(key, { fingerprint, outcome: kept, expiresAt: this.clock.now() + this.retentionMs });
    this.evict();
  }

  /** Past the bound, drops the oldest recorded outcomes (expired ones go first by that order too). */
  private evict(): void {
    if (this.entries.size <= this.maxEntries) return;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) return;
      if (entry.outcome !== undefined) this.entries.delete(key);
    }
  }
}
