import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { type McpClock, SystemClock } from '../core/mcp-clock.js';
import { LIMIT_DEFAULTS } from '../core/mcp-limits.options.js';
import { frozenJson } from './frozen-json.js';
import { isTerminal, type McpTaskRecord } from './mcp-task-record.js';
import { McpTaskStore } from './mcp-task.store.js';
import { McpTaskQuotaExceededException } from './task-quota-exceeded.exception.js';

/**
 * The default {@link McpTaskStore}: tasks in this process's memory, each until its `expiresAt`, at
 * most `maxTasks` of them. Past the bound, the oldest finished tasks make room; when every stored
 * task is still live, a new one is refused (-32603, HTTP 503, `Retry-After`). The per-caller quota
 * `create` is given is checked against the caller's own tasks.
 *
 * Records are kept as deeply frozen JSON: copied once when they come in (so nobody mutates a stored
 * task behind the store's back, and nothing JSON cannot carry is kept), then handed out as they are.
 * A read costs nothing and an update O(what changed): the arguments are stored once and shared by
 * every later version of the record. Per node: behind a load balancer without sticky routing on
 * `Mcp-Name`, use a shared store.
 */
export class InMemoryTaskStore extends McpTaskStore {
  private readonly tasks = new Map<string, McpTaskRecord>();
  /** Task ids by caller, for the quotas; a task leaves its caller's set when the store forgets it. */
  private readonly byCaller = new Map<string, Set<string>>();

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

  async create(record: McpTaskRecord, quota?: McpTaskStore.Quota): Promise<void> {
    const caller = record.caller;
    if (quota && caller !== undefined) {
      McpTaskQuotaExceededException.check(this.count(caller), quota, record.pollIntervalMs, this.clock.now());
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
    this.tasks.set(record.taskId, frozenJson(record));
    if (caller !== undefined) {
      let ids = this.byCaller.get(caller);
      if (!ids) this.byCaller.set(caller, (ids = new Set()));
      ids.add(record.taskId);
    }
  }

  async get(taskId: string): Promise<McpTaskRecord | undefined> {
    return this.live(taskId);
  }

  async update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
  ): Promise<McpTaskRecord | undefined> {
    const record = this.live(taskId);
    if (!record) return undefined;
    const next = change(record);
    if (next === undefined) return record;
    const stored = frozenJson(next);
    this.tasks.set(taskId, stored);
    return stored;
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
    const ids = record.caller === undefined ? undefined : this.byCaller.get(record.caller);
    ids?.delete(record.taskId);
    if (ids?.size === 0) this.byCaller.delete(record.caller!);
  }

  /** The caller's tasks, forgetting the expired ones on the way (O(its stored tasks)). */
  private count(caller: string): McpTaskStore.CallerCount {
    let running = 0;
    let stored = 0;
    let oldestFinishedExpiresAt: number | undefined;
    for (const id of [...(this.byCaller.get(caller) ?? [])]) {
      const record = this.live(id);
      if (!record) continue;
      stored++;
      if (!isTerminal(record.status)) running++;
      else if (oldestFinishedExpiresAt === undefined || record.expiresAt < oldestFinishedExpiresAt) {
        oldestFinishedExpiresAt = record.expiresAt;
      }
    }
    return { running, stored, oldestFinishedExpiresAt };
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
