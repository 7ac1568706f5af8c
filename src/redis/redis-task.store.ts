import { Injectable } from '@nestjs/common';
import { frozenJson, frozenParse } from '../task-store/frozen-json.js';
import { isTerminal, type McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { McpTaskQuotaExceededException } from '../task-store/task-quota-exceeded.exception.js';
import { McpRedisConnection } from './mcp-redis-connection.js';
import { RedisScript } from './redis-script.js';

/**
 * Creates a task: its status and its arguments (two keys, same lifetime) and, for a task with a
 * caller, its id in the caller's set of live (or, created finished, done) tasks, scored by
 * `expiresAt`. With a quota, first forgets the caller's expired ids and refuses past either bound,
 * all in one atomic step, so concurrent creates of one caller on any nodes cannot pass it together.
 * KEYS: status, arguments[, live set, done set]. ARGV: status JSON, arguments JSON, lifetime ms,
 * expiresAt, now, check quota (1/0), max running, max stored, task id, created finished (1/0).
 */
const CREATE = new RedisScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return {'exists'} end
local live, done = KEYS[3], KEYS[4]
if live and ARGV[6] == '1' then
  redis.call('ZREMRANGEBYSCORE', live, '-inf', ARGV[5])
  redis.call('ZREMRANGEBYSCORE', done, '-inf', ARGV[5])
  local running = redis.call('ZCARD', live)
  local stored = running + redis.call('ZCARD', done)
  if running >= tonumber(ARGV[7]) or stored >= tonumber(ARGV[8]) then
    local oldest = redis.call('ZRANGE', done, 0, 0, 'WITHSCORES')
    return {'quota', running, stored, oldest[2] or ''}
  end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[3])
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
if live then
  local set = ARGV[10] == '1' and done or live
  redis.call('ZADD', set, ARGV[4], ARGV[9])
  if redis.call('PTTL', set) < tonumber(ARGV[3]) then redis.call('PEXPIRE', set, ARGV[3]) end
end
return {'ok'}`);

/**
 * Writes the new status JSON only when the stored one is still the JSON the change was computed
 * from; a task that just finished moves from its caller's live set to its done set.
 * KEYS: status[, live set, done set]. ARGV: current JSON, new JSON, lifetime ms, task id, expiresAt.
 */
const COMPARE_AND_SET = new RedisScript(`
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
if KEYS[2] then
  redis.call('ZREM', KEYS[2], ARGV[4])
  redis.call('ZADD', KEYS[3], ARGV[5], ARGV[4])
  if redis.call('PTTL', KEYS[3]) < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[3], ARGV[3]) end
end
return 1`);

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
 * finished task ids, by expiry), checked and written atomically with the task. The handler itself
 * still runs on the node that started it.
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
    ];
    const answer = (await this.redis.run((r) => CREATE.run(r, keys, args))) as [string, number?, number?, string?];
    if (answer[0] === 'exists') throw new Error(`Task ${record.taskId} already exists`);
    if (answer[0] === 'quota') {
      const [, running = 0, stored = 0, oldest = ''] = answer;
      const oldestFinishedExpiresAt = oldest === '' ? undefined : Number(oldest);
      McpTaskQuotaExceededException.check(
        { running, stored, oldestFinishedExpiresAt },
        quota!,
        record.pollIntervalMs,
        now,
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
      const keys = [key, ...(finished ? this.callerKeys(next) : [])];
      const written = await this.redis.run((r) =>
        COMPARE_AND_SET.run(r, keys, [current, json, lifetime(next), taskId, next.expiresAt]),
      );
      if (written === 1) return { ...(JSON.parse(json) as McpTaskRecord), arguments: record.arguments };
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

  /** The caller's live and done sets, or none for a record without a caller. */
  private callerKeys(record: McpTaskRecord): string[] {
    if (record.caller === undefined) return [];
    return [`${this.redis.prefix}task-live:${record.caller}`, `${this.redis.prefix}task-done:${record.caller}`];
  }
}

/** The record as its status key holds it: everything but the arguments. */
function statusJson(record: McpTaskRecord): string {
  return JSON.stringify({ ...record, arguments: undefined });
}

/** Milliseconds until the task may be forgotten (at least 1). */
function lifetime(record: McpTaskRecord): number {
  return Math.max(1, record.expiresAt - Date.now());
}
