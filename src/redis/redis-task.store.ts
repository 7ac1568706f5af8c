import { Injectable } from '@nestjs/common';
import { frozenJson, frozenParse } from '../task-store/frozen-json.js';
import { isTerminal, type McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { McpTaskQuotaExceededException } from '../task-store/task-quota-exceeded.exception.js';
import { statusJson } from '../task-store/task-record-bytes.js';
import { McpRedisConnection, type McpRedisClient } from './mcp-redis-connection.js';
import {
  COMPARE_AND_SET,
  COUNT_GROWTH,
  CREATE,
  CREATE_CALLER_ONLY,
  CREATE_TASK_ONLY,
  FINISH,
  SET_IF_CURRENT,
  UNCOUNT,
} from './redis-task-scripts.js';

/** How often an update is tried again when another node changed the task in between. */
const MAX_ATTEMPTS = 50;

/** How much argument JSON a node keeps parsed (arguments never change, so any copy stays right). */
const ARGUMENTS_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * How long a task its caller's live set names must be seen gone before a reconcile on a cluster
 * uncounts it: longer than a create takes between counting a task and writing it.
 */
const GONE_GRACE_MS = 5000;

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
 *
 * On a Redis Cluster a task's keys are tagged by its id and a caller's by the caller, so they sit
 * in two slots: a create counts the task against its caller (atomically, so the bounds still hold)
 * and then writes it, an update counts its growth, writes the status, then moves a finished task;
 * each step is atomic, the sequence is not. A node lost between two steps leaves at most one task
 * counted wrongly (as running, or with bytes it never wrote), until that task's expiry.
 */
@Injectable()
export class RedisTaskStore extends McpTaskStore {
  /** On a cluster: tasks a reconcile found counted but gone, by id, and when it first saw them so. */
  private readonly goneSince = new Map<string, number>();
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
    const answer = (await this.redis.run((r) =>
      this.redis.isCluster ? this.createOnCluster(r, keys, args) : CREATE.run(r, keys, args),
    )) as Answer;
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
      const written = (await this.redis.run((r) =>
        this.redis.isCluster ? this.compareAndSetOnCluster(r, keys, args) : COMPARE_AND_SET.run(r, keys, args),
      )) as Answer;
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

  /**
   * {@link CREATE} on a cluster: the caller's count first (the bounds hold), then the task; when the
   * task cannot be written, its count is taken back (if that fails too, it lapses with the task's
   * expiry).
   */
  private async createOnCluster(redis: McpRedisClient, keys: string[], args: Array<string | number>): Promise<unknown> {
    const [status, argsKey, ...callerKeys] = keys as [string, string, ...string[]];
    if (callerKeys.length > 0) {
      let counted = (await CREATE_CALLER_ONLY.run(redis, callerKeys, args)) as unknown[];
      if (counted[0] === 'quota' && (await this.reconcileCallerOnCluster(redis, callerKeys))) {
        counted = (await CREATE_CALLER_ONLY.run(redis, callerKeys, args)) as unknown[];
      }
      if (counted[0] !== 'ok') return counted;
    }
    const uncount = () => (callerKeys.length > 0 ? UNCOUNT.run(redis, callerKeys, [args[8]!]) : undefined);
    let written: unknown;
    try {
      written = await CREATE_TASK_ONLY.run(redis, [status, argsKey], args);
    } catch (error) {
      void Promise.resolve(uncount()).catch(() => undefined);
      throw error;
    }
    if ((written as unknown[])[0] !== 'ok') await uncount();
    return written;
  }

  /**
   * On a cluster a caller's counts can outlive what they count: a node lost between two steps of a
   * create or an update, or a master failover that lost a task's last writes (replication is
   * asynchronous). Before a create is refused, each task the caller's live set names is looked up:
   * one that finished moves to the done set; one that is gone leaves the caller's counts once it
   * has been seen gone for {@link GONE_GRACE_MS} (a create in flight has counted its task and not yet
   * written it: the bounds must not open for it). True when anything changed.
   */
  private async reconcileCallerOnCluster(redis: McpRedisClient, callerKeys: string[]): Promise<boolean> {
    let changed = false;
    const now = Date.now();
    for (const [taskId, since] of this.goneSince) if (now - since > 10 * GONE_GRACE_MS) this.goneSince.delete(taskId);
    for (const taskId of await redis.zrange(callerKeys[0]!, 0, '-1')) {
      const json = await redis.get(this.key(taskId));
      if (json === null) {
        const since = this.goneSince.get(taskId);
        if (since === undefined) this.goneSince.set(taskId, now);
        else if (now - since >= GONE_GRACE_MS) {
          await UNCOUNT.run(redis, callerKeys, [taskId]);
          this.goneSince.delete(taskId);
          changed = true;
        }
        continue;
      }
      const record = JSON.parse(json) as McpTaskRecord;
      if (isTerminal(record.status)) {
        await FINISH.run(redis, callerKeys, ['', '', lifetime(record), taskId, record.expiresAt, 1]);
        changed = true;
      }
    }
    return changed;
  }

  /**
   * {@link COMPARE_AND_SET} on a cluster: the growth counted against the caller's budget first (and
   * taken back when the task changed meanwhile), then the status, then a finished task's move.
   */
  private async compareAndSetOnCluster(
    redis: McpRedisClient,
    keys: string[],
    args: Array<string | number>,
  ): Promise<unknown> {
    const [status, ...callerKeys] = keys as [string, ...string[]];
    const [current, next] = args as [string, string];
    const grows = callerKeys.length > 0 && Buffer.byteLength(next) !== Buffer.byteLength(current);
    if (grows) {
      const counted = (await COUNT_GROWTH.run(redis, callerKeys, args)) as unknown[];
      if (counted[0] !== 1) return counted;
    }
    const written = (await SET_IF_CURRENT.run(redis, [status], args)) as unknown[];
    if (written[0] !== 1) {
      // Another node wrote first: the growth counted above was not written. No budget for taking it back.
      if (grows) await COUNT_GROWTH.run(redis, callerKeys, [next, current, ...args.slice(2, 6), 0, ...args.slice(7)]);
      return written;
    }
    if (callerKeys.length > 0 && args[5] === 1) await FINISH.run(redis, callerKeys, args);
    return written;
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

  /** A task's two keys share a slot on a cluster (tagged by the task id); tasks spread over the slots. */
  private key(taskId: string): string {
    return `${this.redis.prefix}task:${this.redis.tag(taskId)}`;
  }

  private argumentsKey(taskId: string): string {
    return `${this.redis.prefix}task-args:${this.redis.tag(taskId)}`;
  }

  /** The caller's live and done sets and its hash of bytes, or none for a record without a caller. */
  private callerKeys(record: McpTaskRecord): string[] {
    if (record.caller === undefined) return [];
    // One slot per caller on a cluster (tagged by the caller).
    const { prefix } = this.redis;
    const caller = this.redis.tag(record.caller);
    return [`${prefix}task-live:${caller}`, `${prefix}task-done:${caller}`, `${prefix}task-bytes:${caller}`];
  }
}

/** Milliseconds until the task may be forgotten (at least 1). */
function lifetime(record: McpTaskRecord): number {
  return Math.max(1, record.expiresAt - Date.now());
}
