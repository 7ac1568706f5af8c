import { Logger } from '@nestjs/common';

/** One fan-out: yields once per delivery it made, so the queue can stop between any two. */
export type FanOut = () => Iterator<unknown>;

/** A queued fan-out, and the key it is coalesced by. */
interface Slot {
  fanOut: FanOut;
  readonly key: string | undefined;
}

/** Deliveries made before the queue gives the event loop back (a few hundred streams' writes, ~1 ms). */
export const FAN_OUT_SLICE = 256;

/**
 * Runs fan-outs (one event to every stream) in order, {@link FAN_OUT_SLICE} deliveries at a time
 * with a `setImmediate` between slices, so one event to thousands of streams does not stall the
 * calls being answered meanwhile. Fan-outs never overlap: each stream hears events in the order
 * they were queued. The first slice of a fan-out queued while the queue is idle runs at once, so a
 * small fan-out is as synchronous as a plain loop.
 *
 * A fan-out pushed with a key replaces one with the same key that waits and has not started (the
 * same list changed again, the same resource updated again): its listeners hear the newest once.
 * So a source that publishes faster than the streams take events queues at most one fan-out per
 * key, instead of growing without bound.
 */
export class FanOutQueue {
  private queued: Slot[] = [];
  private readonly waiting = new Map<string, Slot>();
  /** Index of the next fan-out in `queued` (shifting a long array is a copy each time). */
  private head = 0;
  private current: Iterator<unknown> | undefined;
  private running = false;
  private scheduled = false;

  constructor(
    private readonly logger = new Logger('McpEvents'),
    private readonly slice = FAN_OUT_SLICE,
  ) {}

  /** How many fan-outs wait or run. */
  get size(): number {
    return this.queued.length - this.head + (this.current ? 1 : 0);
  }

  push(fanOut: FanOut, key?: string): void {
    const same = key === undefined ? undefined : this.waiting.get(key);
    if (same) {
      same.fanOut = fanOut;
      return;
    }
    const slot: Slot = { fanOut, key };
    this.queued.push(slot);
    if (key !== undefined) this.waiting.set(key, slot);
    if (!this.running && !this.scheduled) this.run();
  }

  private readonly run = (): void => {
    this.scheduled = false;
    this.running = true;
    let budget = this.slice;
    try {
      while (budget > 0) {
        if (!this.current) {
          const next = this.take();
          if (!next) return;
          this.current = next();
        }
        if (this.step()) budget--;
        else this.current = undefined;
      }
    } finally {
      this.running = false;
      if (this.size > 0 && !this.scheduled) {
        this.scheduled = true;
        setImmediate(this.run);
      }
    }
  };

  private take(): FanOut | undefined {
    if (this.head >= this.queued.length) {
      this.queued = [];
      this.head = 0;
      return undefined;
    }
    const next = this.queued[this.head++]!;
    if (next.key !== undefined) this.waiting.delete(next.key);
    if (this.head > 1024 && this.head * 2 > this.queued.length) {
      this.queued = this.queued.slice(this.head);
      this.head = 0;
    }
    return next.fanOut;
  }

  /** One delivery of the current fan-out; false once it is done (or failed). */
  private step(): boolean {
    try {
      return !this.current!.next().done;
    } catch (error) {
      this.logger.error('An event listener failed', error instanceof Error ? error.stack : String(error));
      return false;
    }
  }
}
