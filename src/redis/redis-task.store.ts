import { Injectable } from '@nestjs/common';
import { frozenJson, frozenParse } from '../task-store/frozen-json.js';
import { isTerminal, type McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { McpTaskQuotaExceededException } from '../task-store/task-quota-exceeded.exception.js';
import { statusJson } from '../task-store/task-record-bytes.js';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { RedisScript } from './redis-script.js';

/**
 * Lua for a caller's three keys (its live and done sets, its hash of bytes, which holds each counted
 * task's bytes under `t:<id>` and their sum under `total`). `forget_expired` takes its expired
 * tasks out of all three. `keep_together` gives the three one expiry, the latest of theirs and
 * `ms`: a set that expired before the hash would leave bytes of tasks nobody can find to forget.
 */
const CALLER_KEYS = `
local function forget_expired(live, done, sizes, now)
  for _, set in ipairs({live, done}) do
    for _, id in ipairs(redis.call('ZRANGEBYSCORE', set, '-inf', now)) do
      local bytes = redis.call('HGET', sizes, 't:' .. id)
      if bytes then
        redis.call('HINCRBY', sizes, 'total', -tonumber(bytes))
        redis.call('HDEL', sizes, 't:' .. id)
      end
    end
    redis.call('ZREMRANGEBYSCORE', set, '-inf', now)
  end
end
local function keep_together(live, done, sizes, ms)
  local keys = {live, done, sizes}
  for _, key in ipairs(keys) do ms = math.max(ms, redis.call('PTTL', key)) end
  for _, key in ipairs(keys) do
    if redis.call('PTTL', key) ~= ms and redis.call('EXISTS', key) == 1 then redis.call('PEXPIRE', key, ms) end
  end
end
`;

/**
 * Creates a task: its status and its arguments (two keys, same lifetime) and, for a task with a
 * caller, its id in the caller's set of live (or, created finished, done) tasks, scored by
 * `expiresAt`, and its bytes (those of the two values) in the caller's hash of bytes. With a quota,
 * first forgets the caller's expired tasks and refuses past any bound, all in one atomic step, so
 * concurrent creates of one caller on any nodes cannot pass it together.
 * KEYS: status, arguments[, live set, done set, bytes hash]. ARGV: status JSON, arguments JSON,
 * lifetime ms, expiresAt, now, check quota (1/0), max running, max stored, task id, created
 * finished (1/0), max bytes (0: none).
 */
const CREATE = new RedisScript(`${CALLER_KEYS}
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local live, done, sizes = KEYS[3], KEYS[4], KEYS[5]
local bytes = #ARGV[1] + #ARGV[2]
if live and ARGV[6] == '1' then
  forget_expired(live, done, sizes, ARGV[5])
  local running = redis.call('ZCARD', live)
  local stored = running + redis.call('ZCARD', done)
  local total = tonumber(redis.call('HGET', sizes, 'total') or '0')
  local maxBytes = tonumber(ARGV[11])
  if running >= tonumber(ARGV[7]) or stored >= tonumber(ARGV[8]) or (maxBytes > 0 and total + bytes > maxBytes) then
    local oldest = redis.call('ZRANGE', done, 0, 0, 'WITHSCORES')
    return {'quota', running, stored, oldest[2] or '', total, bytes}
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if live then
  redis.call('ZADD', ARGV[10] == '1' and done or live, ARGV[4], ARGV[9])
  redis.call('HSET', sizes, 't:' .. ARGV[9], bytes)
  redis.call('HINCRBY', sizes, 'total', bytes)
  keep_together(live, done, sizes, tonumber(ARGV[3]))
end
return {'ok'}`);

/**
 * Writes the new status JSON only when the stored one is still the JSON the change was computed
 * from, and counts the difference in the caller's bytes (for a task created with its bytes
 * counted). With a budget, a write that grows the task past it (after forgetting the caller's
 * expired tasks) is refused and nothing changes. A task that just finished moves from its caller's
 * live set to its done set.
 * KEYS: status[, live set, done set, bytes hash]. ARGV: current JSON, new JSON, lifetime ms, task
 * id, expiresAt, finished (1/0), max bytes (0: none), now.
 */
const COMPARE_AND_SET = new RedisScript(`${CALLER_KEYS}
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {0} end
local live, done, sizes = KEYS[2], KEYS[3], KEYS[4]
local field = 't:' .. ARGV[4]
local growth = #ARGV[2] - #ARGV[1]
local maxBytes = tonumber(ARGV[7])
if sizes and growth > 0 and maxBytes > 0 and redis.call('HEXISTS', sizes, field) == 1 then
  if tonumber(redis.call('HGET', sizes, 'total') or '0') + growth > maxBytes then
    forget_expired(live, done, sizes, ARGV[8])
    local total = tonumber(redis.call('HGET', sizes, 'total') or '0')
    if total + growth > maxBytes then
      local oldest = redis.call('ZRANGE', done, 0, 0, 'WITHSCORES')
      return {'quota', total, oldest[2] or '', tonumber(redis.call('HGET', sizes, field) or '0') + growth, growth}
    end
  end
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if sizes and growth ~= 0 and redis.call('HEXISTS', sizes, field) == 1 then
  redis.call('HINCRBY', sizes, field, growth)
  redis.call('HINCRBY', sizes, 'total', growth)
end
if live and ARGV[6] == '1' then
  redis.call('ZREM', live, ARGV[4])
  redis.call('ZADD', done, ARGV[5], ARGV[4])
  keep_together(live, done, sizes, tonumber(ARGV[3]))
end
return {1}`);

/** How often an update is tried again when another node changed the task in between. */
const MAX_ATTEMPTS = 50;

/** How much argument JSON a node keeps parsed (arguments never change, so any copy stays right). */
const ARGUMENTS_CACHE_BYTES = 32 * 1024 * 1024;

interface CachedArguments {
  readonly value: Record<string, unknown>;
  readonly bytes: number;
  readonly expiresAt: number;
}

/**
 * {@link McpTaskStore} on Redis, so any node answers `tasks/get`, `tasks/update` and `tasks/cancel`
 * for any task. A task is two values that expire with it (`expiresAt`): its status (the record
 * without its arguments) and its arguments, written once. `update` is optimistic on the status
 * alone (read, change, write only if nobody wrote in between — one Lua compare-and-set — else read
 * again), so a progress report moves O(status) bytes however large the arguments are; each node
 * keeps recently read arguments parsed and frozen (up to 32 MiB of JSON), so polling a task does
 * not parse them again. Per-caller quotas are counted in two sorted sets per caller (live and
 * finished task ids, by expiry) and a hash of the bytes of each of its tasks (the lengths of its two
 * values) with their total, checked and written atomically with the task, by the create and by each
 * update; a caller's expired tasks leave its count when it next meets a bound. Tasks created before
 * bytes were counted count against no byte budget. The handler itself still runs on the node that
 * started it.
 */
@Injectable()
export class RedisTaskStore extends McpTaskStore {
  private readonly argumentsCache = new Map<string, CachedArguments>();
  private cachedBytes = 0;

  constructor(private readonly redis: McpRedisConnection) {
    super();
  }

  async create(record: McpTaskRecord, quota?: McpTaskStore.Quota): Promise<void> {
    const argsJson = JSON.stringify(record.arguments);
    const keys = [this.key(record.taskId), this.argumentsKey(record.taskId), ...this.callerKeys(record)];
    const now = Date.now();
    const args = [
      statusJson(record),
      argsJson,
      lifetime(record),
      record.expiresAt,
      now,
      quota ? 1 : 0,
      quota?.maxRunning ?? 0,
      quota?.maxStored ?? 0,
      record.taskId,
      isTerminal(record.status) ? 1 : 0,
      quota?.maxStoredBytes ?? 0,
    ];
    type Answer = [string, number?, number?, string?, number?, number?];
    const answer = (await this.redis.run((r) => CREATE.run(r, keys, args))) as Answer;
    if (answer[0] === 'exists') throw new Error(`Task ${record.taskId} already exists`);
    if (answer[0] === 'quota') {
      const [, running = 0, stored = 0, oldest = '', bytes = 0, recordBytes = 0] = answer;
      const oldestFinishedExpiresAt = oldest === '' ? undefined : Number(oldest);
      McpTaskQuotaExceededException.check(
        { running, stored, oldestFinishedExpiresAt, bytes },
        quota!,
        record.pollIntervalMs,
        now,
        recordBytes,
      );
      throw new Error(`Task ${record.taskId} was refused by a quota that no longer holds`);
    }
    this.remember(record.taskId, frozenJson(record.arguments), Buffer.byteLength(argsJson), record.expiresAt);
  }

  async get(taskId: string): Promise<McpTaskRecord | undefined> {
    const json = await this.redis.run((r) => r.get(this.key(taskId)));
    return json === null ? undefined : this.withArguments(JSON.parse(json) as McpTaskRecord);
  }

  async update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
    quota?: Pick<McpTaskStore.Quota, 'maxStoredBytes'>,
  ): Promise<McpTaskRecord | undefined> {
    const key = this.key(taskId);
    for (let attempt = 1; ; attempt++) {
      const current = await this.redis.run((r) => r.get(key));
      if (current === null) return undefined;
      const stored = JSON.parse(current) as McpTaskRecord;
      const record = await this.withArguments(stored);
      const next = change(record);
      if (next === undefined) return record;
      // A record written before arguments had their own key keeps them inline: there is no other copy.
      const json = stored.arguments === undefined ? statusJson(next) : JSON.stringify(next);
      const finished = !isTerminal(record.status) && isTerminal(next.status);
      const keys = [key, ...this.callerKeys(record)];
      const now = Date.now();
      const args = [
        current,
        json,
        lifetime(next),
        taskId,
        next.expiresAt,
        finished ? 1 : 0,
        quota?.maxStoredBytes ?? 0,
        now,
      ];
      type Answer = [number | string, number?, string?, number?, number?];
      const written = (await this.redis.run((r) => COMPARE_AND_SET.run(r, keys, args))) as Answer;
      if (written[0] === 1) return { ...(JSON.parse(json) as McpTaskRecord), arguments: record.arguments };
      if (written[0] === 'quota') {
        const [, bytes = 0, oldest = '', recordBytes = 0, growth = 0] = written;
        const oldestFinishedExpiresAt = oldest === '' ? undefined : Number(oldest);
        const count = { bytes, oldestFinishedExpiresAt };
        McpTaskQuotaExceededException.checkGrowth(count, quota!, growth, recordBytes, record.pollIntervalMs, now);
        throw new Error(`Task ${taskId} was refused by a quota that no longer holds`);
      }
      if (attempt >= MAX_ATTEMPTS) throw new Error(`Task ${taskId} kept changing; the update was not applied`);
    }
  }

  /** The status read back, with its arguments: from this node's cache, else from their own key. */
  private async withArguments(status: McpTaskRecord): Promise<McpTaskRecord> {
    const cached = this.argumentsCache.get(status.taskId);
    if (cached) {
      // Most recently used last, so eviction takes the least recently used first.
      this.argumentsCache.delete(status.taskId);
      this.argumentsCache.set(status.taskId, cached);
      return { ...status, arguments: cached.value };
    }
    const json = await this.redis.run((r) => r.get(this.argumentsKey(status.taskId)));
    // A record written before arguments had their own key carries them inline.
    if (json === null) return { ...status, arguments: status.arguments ?? {} };
    const value = frozenParse<Record<string, unknown>>(json);
    this.remember(status.taskId, value, Buffer.byteLength(json), status.expiresAt);
    return { ...status, arguments: value };
  }

  private remember(taskId: string, value: Record<string, unknown>, bytes: number, expiresAt: number): void {
    if (bytes > ARGUMENTS_CACHE_BYTES) return;
    const previous = this.argumentsCache.get(taskId);
    if (previous) {
      this.argumentsCache.delete(taskId);
      this.cachedBytes -= previous.bytes;
    }
    const now = Date.now();
    for (const [id, entry] of this.argumentsCache) {
      if (this.cachedBytes + bytes <= ARGUMENTS_CACHE_BYTES && entry.expiresAt > now) break;
      this.argumentsCache.delete(id);
      this.cachedBytes -= entry.bytes;
    }
    this.argumentsCache.set(taskId, { value, bytes, expiresAt });
    this.cachedBytes += bytes;
  }

  private key(taskId: string): string {
    return `${this.redis.prefix}task:${taskId}`;
  }

  private argumentsKey(taskId: string): string {
    return `${this.redis.prefix}task-args:${taskId}`;
  }

  /** The caller's live and done sets and its hash of bytes, or none for a record without a caller. */
  private callerKeys(record: McpTaskRecord): string[] {
    if (record.caller === undefined) return [];
    const { prefix } = this.redis;
    return [
      `${prefix}task-live:${record.caller}`,
      `${prefix}task-done:${record.caller}`,
      `${prefix}task-bytes:${record.caller}`,
    ];
  }
}

/** Milliseconds until the task may be forgotten (at least 1). */
function lifetime(record: McpTaskRecord): number {
  return Math.max(1, record.expiresAt - Date.now());
}
