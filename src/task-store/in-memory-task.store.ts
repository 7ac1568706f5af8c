import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { type McpClock, SystemClock } from '../core/mcp-clock.js';
import { LIMIT_DEFAULTS } from '../core/mcp-limits.options.js';
import { frozenJson } from './frozen-json.js';
import { isTerminal, type McpTaskRecord } from './mcp-task-record.js';
import { McpTaskStore } from './mcp-task.store.js';
import { jsonBytes } from './task-payload.js';
import { McpTaskQuotaExceededException } from './task-quota-exceeded.exception.js';
import { frozenRecordBytes } from './task-record-bytes.js';

/** What one task with a caller takes in its caller's byte budget. */
interface TaskSize {
  readonly caller: string;
  /** Bytes of its arguments' JSON: counted once, when the task is created (they never change). */
  readonly arguments: number;
  /** {@link frozenRecordBytes}: the whole task. */
  readonly total: number;
}

/** A caller's stored tasks, and the bytes they take together. */
interface CallerTasks {
  readonly ids: Set<string>;
  bytes: number;
}

/**
 * The default {@link McpTaskStore}: tasks in this process's memory, each until its `expiresAt`, at
 * most `maxTasks` of them. Past the bound, the oldest finished tasks make room; when every stored
 * task is still live, a new one is refused (-32603, HTTP 503, `Retry-After`). The per-caller quota
 * `create` (and, for the byte budget, `update`) is given is checked against the caller's own tasks,
 * in the same synchronous step as the write.
 *
 * Records are kept as deeply frozen JSON: copied once when they come in (so nobody mutates a stored
 * task behind the store's back, and nothing JSON cannot carry is kept), then handed out as they are.
 * A read costs nothing and an update O(what changed): the arguments are stored once and shared by
 * every later version of the record, and a task's bytes (for its caller's budget) are counted once
 * per part. Per node: behind a load balancer without sticky routing on `Mcp-Name`, use a shared
 * store.
 */
export class InMemoryTaskStore extends McpTaskStore {
  private readonly tasks = new Map<string, McpTaskRecord>();
  /** Task ids and bytes by caller, for the quotas; a task leaves its caller's count when the store forgets it. */
  private readonly byCaller = new Map<string, CallerTasks>();
  /** The size of each task with a caller. */
  private readonly sizes = new Map<string, TaskSize>();

  constructor(
    private readonly clock: McpClock = new SystemClock(),
    private readonly maxTasks = LIMIT_DEFAULTS.maxTasks,
  ) {
    super();
  }

  /** How many tasks are held (expired ones included until they are looked up or evicted). */
  get size(): number {
    return this.tasks.size;
  }

  /** The bytes the caller's stored tasks take (expired ones included until they are looked up or evicted). */
  bytesOf(caller: string): number {
    return this.byCaller.get(caller)?.bytes ?? 0;
  }

  async create(record: McpTaskRecord, quota?: McpTaskStore.Quota): Promise<void> {
    const caller = record.caller;
    const stored = frozenJson(record);
    const argumentsBytes = caller === undefined ? 0 : jsonBytes(stored.arguments);
    const bytes = caller === undefined ? 0 : frozenRecordBytes(stored, argumentsBytes);
    if (quota && caller !== undefined) {
      McpTaskQuotaExceededException.check(this.count(caller), quota, record.pollIntervalMs, this.clock.now(), bytes);
    }
    if (this.tasks.size >= this.maxTasks) this.evict();
    if (this.tasks.size >= this.maxTasks) {
      const seconds = Math.max(1, Math.ceil(record.pollIntervalMs / 1000));
      throw new McpError(
        McpErrorCode.InternalError,
        'Too many tasks in progress; try again later',
        { retryAfterMs: record.pollIntervalMs, limit: 'maxTasks' },
        503,
        { 'retry-after': String(seconds) },
      );
    }
    const previous = this.tasks.get(record.taskId);
    if (previous) this.forget(previous);
    this.tasks.set(record.taskId, stored);
    if (caller !== undefined) {
      let tasks = this.byCaller.get(caller);
      if (!tasks) this.byCaller.set(caller, (tasks = { ids: new Set(), bytes: 0 }));
      tasks.ids.add(record.taskId);
      tasks.bytes += bytes;
      this.sizes.set(record.taskId, { caller, arguments: argumentsBytes, total: bytes });
    }
  }

  async get(taskId: string): Promise<McpTaskRecord | undefined> {
    return this.live(taskId);
  }

  async update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
    quota?: Pick<McpTaskStore.Quota, 'maxStoredBytes'>,
  ): Promise<McpTaskRecord | undefined> {
    const record = this.live(taskId);
    if (!record) return undefined;
    const next = change(record);
    if (next === undefined) return record;
    const stored = frozenJson(next);
    const size = this.sizes.get(taskId);
    if (size) {
      const argumentsBytes = stored.arguments === record.arguments ? size.arguments : jsonBytes(stored.arguments);
      const total = frozenRecordBytes(stored, argumentsBytes);
      if (quota) this.checkGrowth(size.caller, total - size.total, total, record.pollIntervalMs, quota);
      // Counting the caller's tasks may have forgotten this one, had it just expired.
      if (this.tasks.get(taskId) !== record) return undefined;
      this.byCaller.get(size.caller)!.bytes += total - size.total;
      this.sizes.set(taskId, { ...size, arguments: argumentsBytes, total });
    }
    this.tasks.set(taskId, stored);
    return stored;
  }

  /** Refuses a record growing past its caller's byte budget; the caller's expired tasks are forgotten first. */
  private checkGrowth(
    caller: string,
    growth: number,
    recordBytes: number,
    pollIntervalMs: number,
    quota: Pick<McpTaskStore.Quota, 'maxStoredBytes'>,
  ): void {
    const max = quota.maxStoredBytes;
    if (max === undefined || growth <= 0 || (recordBytes <= max && this.bytesOf(caller) + growth <= max)) return;
    McpTaskQuotaExceededException.checkGrowth(
      this.count(caller),
      quota,
      growth,
      recordBytes,
      pollIntervalMs,
      this.clock.now(),
    );
  }

  private live(taskId: string): McpTaskRecord | undefined {
    const record = this.tasks.get(taskId);
    if (record && record.expiresAt <= this.clock.now()) {
      this.forget(record);
      return undefined;
    }
    return record;
  }

  private forget(record: McpTaskRecord): void {
    this.tasks.delete(record.taskId);
    const size = this.sizes.get(record.taskId);
    if (!size) return;
    this.sizes.delete(record.taskId);
    const tasks = this.byCaller.get(size.caller)!;
    tasks.ids.delete(record.taskId);
    tasks.bytes -= size.total;
    if (tasks.ids.size === 0) this.byCaller.delete(size.caller);
  }

  /** The caller's tasks, forgetting the expired ones on the way (O(its stored tasks)). */
  private count(caller: string): McpTaskStore.CallerCount {
    let running = 0;
    let stored = 0;
    let oldestFinishedExpiresAt: number | undefined;
    for (const id of [...(this.byCaller.get(caller)?.ids ?? [])]) {
      const record = this.live(id);
      if (!record) continue;
      stored++;
      if (!isTerminal(record.status)) running++;
      else if (oldestFinishedExpiresAt === undefined || record.expiresAt < oldestFinishedExpiresAt) {
        oldestFinishedExpiresAt = record.expiresAt;
      }
    }
    return { running, stored, oldestFinishedExpiresAt, bytes: this.bytesOf(caller) };
  }

  /** Drops expired tasks, then the oldest finished ones until there is room for one more. */
  private evict(): void {
    const now = this.clock.now();
    for (const record of this.tasks.values()) if (record.expiresAt <= now) this.forget(record);
    for (const record of this.tasks.values()) {
      if (this.tasks.size < this.maxTasks) return;
      if (isTerminal(record.status)) this.forget(record);
    }
  }
}
