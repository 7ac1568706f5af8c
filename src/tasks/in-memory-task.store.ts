import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import type { McpClock } from '../mrtr/mcp-clock.js';
import { isTerminal, type McpTaskRecord } from './mcp-task.record.js';
import { McpTaskStore } from './mcp-task.store.js';

/**
 * The default {@link McpTaskStore}: tasks in this process's memory, each until its `expiresAt`, at
 * most `maxTasks` of them. Past the bound, the oldest finished tasks make room; when every stored
 * task is still live, a new one is refused (-32603, HTTP 503). Records are copied in and out as
 * JSON, as a shared store would serialise them, so nobody mutates a stored task behind the store's back. Per node: behind a load balancer without
 * sticky routing on `Mcp-Name`, use a shared store.
 *
 * @publicApi
 */
export class InMemoryTaskStore extends McpTaskStore {
  private readonly tasks = new Map<string, McpTaskRecord>();

  constructor(
    private readonly clock: McpClock,
    private readonly maxTasks = 10_000,
  ) {
    super();
  }

  /** How many tasks are held (expired ones included until they are looked up or evicted). */
  get size(): number {
    return this.tasks.size;
  }

  async create(record: McpTaskRecord): Promise<void> {
    if (this.tasks.size >= this.maxTasks) this.evict();
    if (this.tasks.size >= this.maxTasks) {
      throw new McpError(McpErrorCode.InternalError, 'Too many tasks in progress; try again later', undefined, 503);
    }
    this.tasks.set(record.taskId, copy(record));
  }

  async get(taskId: string): Promise<McpTaskRecord | undefined> {
    const record = this.live(taskId);
    return record && copy(record);
  }

  async update(
    taskId: string,
    change: (record: McpTaskRecord) => McpTaskRecord | undefined,
  ): Promise<McpTaskRecord | undefined> {
    const record = this.live(taskId);
    if (!record) return undefined;
    const next = change(copy(record));
    if (next === undefined) return copy(record);
    this.tasks.set(taskId, copy(next));
    return copy(next);
  }

  private live(taskId: string): McpTaskRecord | undefined {
    const record = this.tasks.get(taskId);
    if (record && record.expiresAt <= this.clock.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return record;
  }

  /** Drops expired tasks, then the oldest finished ones until there is room for one more. */
  private evict(): void {
    const now = this.clock.now();
    for (const [id, record] of this.tasks) if (record.expiresAt <= now) this.tasks.delete(id);
    for (const [id, record] of this.tasks) {
      if (this.tasks.size < this.maxTasks) return;
      if (isTerminal(record.status)) this.tasks.delete(id);
    }
  }
}

/** A JSON copy: what a networked store would hand back, and nothing that JSON cannot carry. */
function copy(record: McpTaskRecord): McpTaskRecord {
  return JSON.parse(JSON.stringify(record)) as McpTaskRecord;
}
