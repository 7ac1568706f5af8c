import type { Cluster, Redis } from 'ioredis';
import { resolveMcpTaskQueueOptions } from './mcp-task-queue.options.js';

/** Just what the options look at of an ioredis client. */
const cluster = (maxRetriesPerRequest?: number | null) =>
  ({ isCluster: true, options: { redisOptions: { maxRetriesPerRequest } } }) as unknown as Cluster;
const single = (maxRetriesPerRequest: number | null) =>
  ({ isCluster: false, options: { maxRetriesPerRequest } }) as unknown as Redis;

describe('McpTaskQueueModule options on a Redis Cluster', () => {
  it('tag a prefix without a hash tag, and keep a tagged one', () => {
    expect(resolveMcpTaskQueueOptions({ client: cluster(null) }).prefix).toBe('{bull}');
    expect(resolveMcpTaskQueueOptions({ client: cluster(null), prefix: 'reports' }).prefix).toBe('{reports}');
    expect(resolveMcpTaskQueueOptions({ client: cluster(null), prefix: '{reports}' }).prefix).toBe('{reports}');
    expect(resolveMcpTaskQueueOptions({ client: cluster(null), prefix: 'app:{q}' }).prefix).toBe('app:{q}');
  });

  it('leave the prefix of a single Redis as it is', () => {
    expect(resolveMcpTaskQueueOptions({ connection: 'redis://x' }).prefix).toBe('bull');
    expect(resolveMcpTaskQueueOptions({ client: single(null), prefix: 'reports' }).prefix).toBe('reports');
  });

  it('refuse a client without maxRetriesPerRequest: null (BullMQ requires it)', () => {
    expect(() => resolveMcpTaskQueueOptions({ client: cluster() })).toThrow(
      /a Cluster `client` needs `redisOptions: \{ maxRetriesPerRequest: null \}`/,
    );
    expect(() => resolveMcpTaskQueueOptions({ client: cluster(3) })).toThrow(/maxRetriesPerRequest: null/);
    expect(() => resolveMcpTaskQueueOptions({ client: single(20) })).toThrow(
      /a `client` needs `maxRetriesPerRequest: null`/,
    );
  });
});
