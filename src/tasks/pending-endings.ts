/**
 * The endings of task handlers still being written, so a node shutting down waits for them (at
 * most `maxWaitMs`) before the application closes the store's connections.
 */
export class PendingEndings {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly maxWaitMs: number) {}

  /** Keeps `writing` in view until it settles; resolves as it does. */
  track(writing: Promise<void>): Promise<void> {
    this.pending.add(writing);
    return writing.finally(() => this.pending.delete(writing));
  }

  /** Resolves once every ending in view is written, or after `maxWaitMs`. */
  async drain(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.pending),
      new Promise((resolve) => (timer = setTimeout(resolve, this.maxWaitMs))),
    ]);
    clearTimeout(timer);
  }
}
