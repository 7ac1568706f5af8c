import type { Logger } from '@nestjs/common';
import type { McpClock } from '../core/mcp-clock.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import type { McpTaskStore } from '../task-store/mcp-task.store.js';
import type { TaskRecordWriter } from './task-record-writer.js';
import { abandonedRecord, leasedRecord } from './task-transitions.js';

/**
 * A running task's lease: the node running its handler vouches for it until `leaseExpiresAt`
 * (granted by the write that made it `working`), renewing it every third of `tasks.leaseMs`; a
 * reader on any node fails a task whose lease lapsed (its node was killed or lost), unless a
 * durable executor runs it again elsewhere.
 */
export class TaskLeaseKeeper {
  constructor(
    private readonly store: McpTaskStore,
    private readonly writer: TaskRecordWriter,
    private readonly clock: McpClock,
    private readonly leaseMs: number,
    private readonly logger: Logger,
    /** Stops the handler of a task running here that ended elsewhere. */
    private readonly endedElsewhere: (taskId: string) => void,
  ) {}

  /**
   * Vouches for a task this node runs for another `leaseMs`. Not published (nothing a client sees
   * changed). A task that ended meanwhile elsewhere (cancelled, or failed as abandoned while this
   * node could not renew) stops its handler here.
   */
  renew(taskId: string): void {
    const until = this.clock.now() + this.leaseMs;
    this.store
      .update(taskId, (record) => leasedRecord(record, until))
      .then((stored) => {
        if (!stored || stored.status !== 'working') this.endedElsewhere(taskId);
      })
      .catch((error: unknown) => {
        this.logger.warn(
          `Could not renew the lease of task ${taskId}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
  }

  /**
   * The task as a client should see it now: a running task whose node stopped vouching for it is
   * failed first, by whichever node reads it.
   */
  async current(record: McpTaskRecord): Promise<McpTaskRecord> {
    const nowMs = this.clock.now();
    if (record.status !== 'working' || record.leaseExpiresAt === undefined || record.leaseExpiresAt >= nowMs) {
      return record;
    }
    // A durable executor runs it again elsewhere: its lease only says nobody runs it right now.
    if (record.queued) return record;
    const failed = await this.writer.apply(record.taskId, (current, now) => abandonedRecord(current, nowMs, now));
    return failed ?? (await this.store.get(record.taskId)) ?? record;
  }
}
