import { Logger } from '@nestjs/common';
import { FanOutQueue } from './fan-out-queue.js';
import { InProcessEventBus } from './in-process-event-bus.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A fan-out that records `tag:i` for each of `count` deliveries. */
function fanOut(log: string[], tag: string, count: number) {
  return function* () {
    for (let i = 0; i < count; i++) {
      log.push(`${tag}:${i}`);
      yield;
    }
  };
}

describe('FanOutQueue', () => {
  it('runs the first slice at once and the rest a turn of the event loop later, in order', async () => {
    const log: string[] = [];
    const queue = new FanOutQueue(new Logger('test'), 3);
    queue.push(fanOut(log, 'a', 5));
    queue.push(fanOut(log, 'b', 2));
    expect(log).toEqual(['a:0', 'a:1', 'a:2']);
    await turn();
    expect(log).toEqual(['a:0', 'a:1', 'a:2', 'a:3', 'a:4', 'b:0']);
    await turn();
    expect(log).toEqual(['a:0', 'a:1', 'a:2', 'a:3', 'a:4', 'b:0', 'b:1']);
    expect(queue.size).toBe(0);
  });

  it('a keyed fan-out replaces a waiting one of the same key, never one that started', async () => {
    const log: string[] = [];
    const queue = new FanOutQueue(new Logger('test'), 2);
    queue.push(fanOut(log, 'a', 3), 'tools');
    // 'a' has started: a second 'tools' waits behind it, and later ones replace that one.
    for (let i = 1; i <= 1000; i++) queue.push(fanOut(log, `t${i}`, 1), 'tools');
    queue.push(fanOut(log, 'r', 1), 'resource:x');
    queue.push(fanOut(log, 'plain1', 1));
    queue.push(fanOut(log, 'plain2', 1));
    expect(queue.size).toBe(5);
    while (queue.size > 0) await turn();
    expect(log).toEqual(['a:0', 'a:1', 'a:2', 't1000:0', 'r:0', 'plain1:0', 'plain2:0']);
  });

  it('an event bus publishing far faster than delivery holds one pending fan-out per key', async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    for (let i = 0; i < 600; i++) bus.subscribe((event) => heard.push(event.kind));
    for (let i = 0; i < 10_000; i++) bus.publish({ kind: 'list_changed', list: 'tools' });
    bus.publish({ kind: 'resource_updated', uri: 'notes://1' });
    while (heard.length < 600 * 3) await turn();
    await turn();
    // The first event (started at once), the newest list change, the resource update.
    expect(heard.length).toBe(600 * 3);
    expect(heard.filter((kind) => kind === 'resource_updated')).toHaveLength(600);
  });

  it('logs a fan-out that throws and goes on with the next', async () => {
    const errors: unknown[] = [];
    const logger = { error: (...args: unknown[]) => errors.push(args[0]) } as unknown as Logger;
    const log: string[] = [];
    const queue = new FanOutQueue(logger, 10);
    queue.push(function* () {
      yield;
      throw new Error('broken');
    });
    queue.push(fanOut(log, 'b', 1));
    await turn();
    expect(errors).toEqual(['An event listener failed']);
    expect(log).toEqual(['b:0']);
  });
});

describe('InProcessEventBus', () => {
  beforeEach(() => Logger.overrideLogger(false));

  it('delivers every event to every listener in publishing order, across slices', async () => {
    const bus = new InProcessEventBus();
    const heard: string[][] = Array.from({ length: 600 }, () => []);
    heard.forEach((log, i) => bus.subscribe((event) => log.push(event.kind === 'list_changed' ? event.list : `${i}`)));
    bus.publish({ kind: 'list_changed', list: 'tools' });
    bus.publish({ kind: 'list_changed', list: 'prompts' });
    // 1,200 deliveries do not all happen in the publishing turn.
    expect(heard[599]).toEqual([]);
    for (let i = 0; i < 10; i++) await turn();
    for (const log of heard) expect(log).toEqual(['tools', 'prompts']);
  });

  it('does not tell a listener of events published before it subscribed, nor after it left', async () => {
    const bus = new InProcessEventBus();
    const early: string[] = [];
    const late: string[] = [];
    const filler = Array.from({ length: 300 }, () => bus.subscribe(() => undefined));
    const offEarly = bus.subscribe((event) => early.push(event.kind));
    bus.publish({ kind: 'resource_updated', uri: 'test://a' });
    bus.subscribe((event) => late.push(event.kind));
    offEarly();
    for (let i = 0; i < 5; i++) await turn();
    expect(early).toEqual([]);
    expect(late).toEqual([]);
    bus.publish({ kind: 'list_changed', list: 'tools' });
    for (let i = 0; i < 5; i++) await turn();
    expect(late).toEqual(['list_changed']);
    filler.forEach((off) => off());
    expect(bus.size).toBe(1);
  });

  it('keeps delivering to the others when a listener throws', async () => {
    const bus = new InProcessEventBus();
    const heard: string[] = [];
    bus.subscribe(() => {
      throw new Error('a broken listener');
    });
    bus.subscribe((event) => heard.push(event.kind));
    bus.publish({ kind: 'list_changed', list: 'tools' });
    await turn();
    expect(heard).toEqual(['list_changed']);
  });
});
