import { McpClock, SystemClock } from '../core/mcp-clock.js';
import { type FlowClaim, McpFlowStore } from './mcp-flow.store.js';

interface Running {
  readonly kind: 'running';
  readonly settled: Promise<void>;
  readonly release: () => void;
}

interface Recorded {
  readonly kind: 'recorded';
  readonly result: Record<string, unknown>;
  readonly expiresAt: number;
}

/**
 * The default {@link McpFlowStore}: completions in this process's memory, each kept until its
 * flow's tokens expire, at most `maxEntries` of them (the oldest go first). Per node: behind a
 * load balancer, a final round replayed on another node runs again unless a shared store is used.
 */
export class InMemoryFlowStore extends McpFlowStore {
  private readonly entries = new Map<string, Running | Recorded>();

  constructor(
    private readonly clock: McpClock = new SystemClock(),
    private readonly maxEntries = 10_000,
  ) {
    super();
  }

  /** How many flows are recorded or running. */
  get size(): number {
    return this.entries.size;
  }

  async claim(flowId: string, _expiresAt: number): Promise<FlowClaim> {
    for (;;) {
      const entry = this.entries.get(flowId);
      if (entry === undefined) break;
      if (entry.kind === 'recorded') {
        if (entry.expiresAt >= this.clock.now()) return { kind: 'recorded', result: entry.result };
        this.entries.delete(flowId);
        break;
      }
      await entry.settled;
    }
    let release!: () => void;
    const settled = new Promise<void>((resolve) => (release = resolve));
    this.entries.set(flowId, { kind: 'running', settled, release });
    return { kind: 'run' };
  }

  async settle(flowId: string, result: Record<string, unknown> | undefined, expiresAt: number): Promise<void> {
    const entry = this.entries.get(flowId);
    if (entry?.kind !== 'running') return;
    this.entries.delete(flowId);
    if (result !== undefined) {
      this.entries.set(flowId, { kind: 'recorded', result, expiresAt });
      this.evict();
    }
    entry.release();
  }

  /** Past the bound, drops the oldest records (expired ones are dropped when next looked up); running claims stay. */
  private evict(): void {
    if (this.entries.size <= this.maxEntries) return;
    for (const [id, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries) return;
      if (entry.kind === 'recorded') this.entries.delete(id);
    }
  }
}
