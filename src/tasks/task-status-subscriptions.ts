import { Inject, Injectable } from '@nestjs/common';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import { callerOf, isTaskOf } from '../task-store/task-caller.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { detailedTask, type McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpTaskEvents } from './mcp-task-events.js';
import { McpTaskStore } from '../task-store/mcp-task.store.js';
import { declaresTasks, REQUIRED_TASKS_CAPABILITY } from '../protocol/task-support.js';

/** The task part of one subscriptions/listen stream: the task ids honoured, and how to stop. */
export interface TaskStatusSubscription {
  readonly taskIds: string[];
  readonly off: () => void;
}

/**
 * `notifications/tasks` on subscriptions/listen streams (SEP-2663): a client that lists `taskIds`
 * in its filter hears each change of those tasks as a full DetailedTask. Asking without declaring
 * the extension is -32021; only the caller's own tasks of this server are honoured (others are left out of the
 * acknowledgement, as if unknown).
 */
@Injectable()
export class TaskStatusSubscriptions {
  constructor(
    private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly principals: McpPrincipalSource,
    @Inject(MCP_SERVER_OPTIONS) private readonly server: ResolvedMcpServerOptions,
  ) {}

  /** Undefined when the filter asks for no task ids. */
  async subscribe(
    exchange: McpExchange,
    requested: unknown,
    send: (method: string, params: Record<string, unknown>) => void,
  ): Promise<TaskStatusSubscription | undefined> {
    if (requested === undefined) return undefined;
    if (!Array.isArray(requested)) throw McpError.invalidParams('params.notifications.taskIds must be an array');
    if (!declaresTasks(exchange.clientCapabilities)) throw McpError.missingCapability({ ...REQUIRED_TASKS_CAPABILITY });
    const principal = this.principals.resolve(exchange);
    const mine = (record: McpTaskRecord) =>
      isTaskOf(record, this.server.path, callerOf(exchange, principal), principal);
    // Bounded by subscriptions/listen (limits.maxListenFilterEntries) before it gets here.
    const wanted = [...new Set(requested.filter((id): id is string => typeof id === 'string'))];
    const records = await Promise.all(wanted.map((id) => this.store.get(id)));
    const taskIds = wanted.filter((_, i) => records[i] !== undefined && mine(records[i]!));
    const ids = new Set(taskIds);
    const off = this.events.on((record) => {
      if (ids.has(record.taskId) && mine(record)) send('notifications/tasks', detailedTask(record));
    });
    return { taskIds, off };
  }
}
