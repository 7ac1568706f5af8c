import { Injectable } from '@nestjs/common';
import type { McpTaskRecord } from '../tasks/mcp-task.record.js';
import { McpTaskStore } from '../tasks/mcp-task.store.js';
import { McpRedisConnection } from './mcp-redis.connection.js';
import { RedisScript } from './redis-script.js';

/** Writes the new JSON only when the stored one is still the JSON the change was computed from. */
const COMPARE_AND_SET = new RedisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1`);

/** How often an update is tried again when another node changed the task in between. */
const MAX_ATTEMPTS = 50;

/**
 * {@link McpTaskStore} on Redis, so any node answers `tasks/get`, `tasks/update` and `tasks/cancel`
 * for any task: one JSON value per task that expires with the task (`expiresAt`); `update` is
 * optimistic (read, change, write only if nobody wrote in between — one Lua compare-and-set — else
 * read again). The handler itself still runs on the node that started it.
 *
 * @publicApi
 */
@Injectable()
export class RedisTaskStore extends McpTaskStore {
  constructor(private readonly redis: McpRedisConnection) {
    super();
  }

  async create(record: McpTaskRecord): Promise<void> {
    const json = JSON.stringify(record);
    const created = await this.redis.run((r) => r.set(this.key(record.taskId), json, 'PX', lifetime(record), 'NX'));
    if (created !== 'OK') throw new Error(`Task ${record.taskId} already exists`);
  }

  async get(taskId: string): Promise<McpTaskRecord | undefined> {
    const json = await this.redis.run((r) => r.get(this.key(taskId)));
    return json === null ? undefined : (JSON.parse(json) as McpTaskRecord);
  }

  async update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
  ): Promise<McpTaskRecord | undefined> {
    const key = this.key(taskId);
    for (let attempt = 1; ; attempt++) {
      const current = await this.redis.run((r) => r.get(key));
      if (current === null) return undefined;
      const next = change(JSON.parse(current) as McpTaskRecord);
      if (next === undefined) return JSON.parse(current) as McpTaskRecord;
      const json = JSON.stringify(next);
      const written = await this.redis.run((r) => COMPARE_AND_SET.run(r, [key], [current, json, lifetime(next)]));
      if (written === 1) return JSON.parse(json) as McpTaskRecord;
      if (attempt >= MAX_ATTEMPTS) throw new Error(`Task ${taskId} kept changing; the update was not applied`);
    }
  }

  private key(taskId: string): string {
    return `${this.redis.prefix}task:${taskId}`;
  }
}

/** Milliseconds until the task may be forgotten (at least 1). */
function lifetime(record: McpTaskRecord): number {
  return Math.max(1, record.expiresAt - Date.now());
}
