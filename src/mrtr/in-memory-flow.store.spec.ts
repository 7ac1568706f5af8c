import { InMemoryFlowStore } from './in-memory-flow.store.js';
import { McpClock } from '../core/mcp-clock.js';

class Clock extends McpClock {
  current = 1_000;
  now(): number {
    return this.current;
  }
}

describe('InMemoryFlowStore', () => {
  it('lets the first claimant run and answers later ones with the recorded result', async () => {
    const store = new InMemoryFlowStore(new Clock());
    expect(await store.claim('f', 5_000)).toEqual({ kind: 'run' });
    await store.settle('f', { content: 'done' }, 5_000);
    expect(await store.claim('f', 5_000)).toEqual({ kind: 'recorded', result: { content: 'done' } });
  });

  it('makes concurrent claimants wait for the running one', async () => {
    const store = new InMemoryFlowStore(new Clock());
    await store.claim('f', 5_000);
    const waiting = [store.claim('f', 5_000), store.claim('f', 5_000)];
    let settledEarly = false;
    void Promise.race(waiting).then(() => (settledEarly = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settledEarly).toBe(false);
    await store.settle('f', { n: 1 }, 5_000);
    expect(await Promise.all(waiting)).toEqual([
      { kind: 'recorded', result: { n: 1 } },
      { kind: 'recorded', result: { n: 1 } },
    ]);
  });

  it('hands the claim on when the runner recorded nothing (the round asked another question)', async () => {
    const store = new InMemoryFlowStore(new Clock());
    await store.claim('f', 5_000);
    const next = store.claim('f', 5_000);
    await store.settle('f', undefined, 5_000);
    expect(await next).toEqual({ kind: 'run' });
  });

  it('forgets a record once its flow expired, and keeps at most maxEntries records', async () => {
    const clock = new Clock();
    const store = new InMemoryFlowStore(clock, 2);
    for (const id of ['a', 'b', 'c']) {
      await store.claim(id, 2_000);
      await store.settle(id, { id }, 2_000);
    }
    expect(store.size).toBe(2);
    expect(await store.claim('a', 2_000)).toEqual({ kind: 'run' });
    await store.settle('a', undefined, 2_000);
    expect(await store.claim('c', 2_000)).toEqual({ kind: 'recorded', result: { id: 'c' } });
    clock.current = 2_001;
    expect(await store.claim('c', 2_000)).toEqual({ kind: 'run' });
  });
});
