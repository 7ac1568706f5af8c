import { McpClock } from '../core/mcp-clock.js';
import { InMemoryIdempotencyStore } from './in-memory-idempotency.store.js';

class Clock extends McpClock {
  current = 1_000;
  now(): number {
    return this.current;
  }
}

const DONE = { result: { content: [{ type: 'text', text: 'done' }] } };

describe('InMemoryIdempotencyStore', () => {
  it('lets the first claimant run, tells others it runs, then answers with the recorded outcome', async () => {
    const store = new InMemoryIdempotencyStore(new Clock());
    expect(await store.claim('k', 'fp')).toEqual({ kind: 'run' });
    expect(await store.claim('k', 'other')).toEqual({ kind: 'running', fingerprint: 'fp' });
    await store.settle('k', 'fp', DONE);
    expect(await store.claim('k', 'fp')).toEqual({ kind: 'recorded', fingerprint: 'fp', outcome: DONE });
  });

  it('frees the key when the call settles without an outcome', async () => {
    const store = new InMemoryIdempotencyStore(new Clock());
    await store.claim('k', 'fp');
    await store.settle('k', 'fp', undefined);
    expect(store.size).toBe(0);
    expect(await store.claim('k', 'fp2')).toEqual({ kind: 'run' });
  });

  it('keeps an outcome for retentionMs only', async () => {
    const clock = new Clock();
    const store = new InMemoryIdempotencyStore(clock, 500);
    await store.claim('k', 'fp');
    await store.settle('k', 'fp', DONE);
    clock.current += 499;
    expect((await store.claim('k', 'fp')).kind).toBe('recorded');
    clock.current += 1;
    expect(await store.claim('k', 'fp')).toEqual({ kind: 'run' });
  });

  it('drops the oldest outcomes past maxEntries, never a running claim', async () => {
    const store = new InMemoryIdempotencyStore(new Clock(), 60_000, 2);
    await store.claim('running', 'fp');
    for (const key of ['a', 'b', 'c']) {
      await store.claim(key, 'fp');
      await store.settle(key, 'fp', DONE);
    }
    expect(store.size).toBe(2);
    expect(await store.claim('running', 'fp')).toEqual({ kind: 'running', fingerprint: 'fp' });
    expect(await store.claim('c', 'fp')).toMatchObject({ kind: 'recorded' });
    expect(await store.claim('a', 'fp')).toEqual({ kind: 'run' });
  });

  it('ignores a settle for a claim it does not hold', async () => {
    const store = new InMemoryIdempotencyStore(new Clock());
    await store.settle('k', 'fp', DONE);
    expect(store.size).toBe(0);
  });
});
