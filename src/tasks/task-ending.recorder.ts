import type { Logger } from '@nestjs/common';
import { toCallToolResult, toolErrorResult } from '../calls/tool-result.normalizer.js';
import type { McpCallOutcome } from '../mrtr/mrtr.engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import { logText } from '../telemetry/log-text.js';
import type { McpTaskEvents } from './mcp-task.events.js';
import { isTerminal, type McpTaskRecord } from '../task-store/mcp-task.record.js';
import type { McpTaskStore } from '../task-store/mcp-task.store.js';
import { askedRecord } from './task-questions.js';
import { boundedEnding, type TaskEnding } from '../task-store/task-payload.js';
import { type ResolvedMcpLimits } from '../core/mcp-limits.options.js';

/**
 * Records in the store how a task's background handler ended: its result, the questions it asked
 * (`input_required`), or its failure. A task cancelled (or expired) meanwhile keeps what it has.
 */
export class TaskEndingRecorder {
  constructor(
    private readonly store: McpTaskStore,
    private readonly events: McpTaskEvents,
    private readonly limits: ResolvedMcpLimits,
    private readonly isoNow: () => string,
    private readonly logger: Logger,
  ) {}

  /** A completed handler completes the task; one that asked for input parks it in `input_required`. */
  async recordOutcome(taskId: string, session: ReplaySession, outcome: McpCallOutcome): Promise<void> {
    if (outcome.kind === 'complete') {
      await this.end(taskId, { status: 'completed', result: { ...toCallToolResult(outcome.value) } });
      return;
    }
    const signal = session.lastInputRequired!;
    const replay = session.nextPayload(signal);
    await this.finish(taskId, (record) => askedRecord(record, signal.inputRequests, replay));
  }

  /** A protocol error fails the task; anything else the tool threw is a tool error (completed, isError). */
  async recordError(taskId: string, error: unknown): Promise<void> {
    if (error instanceof McpError) {
      await this.end(taskId, {
        status: 'failed',
        statusMessage: error.message,
        error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) },
      });
      return;
    }
    const message = error instanceof Error ? error.message : String(error);
    await this.end(taskId, { status: 'completed', result: { ...toolErrorResult(message || 'Tool failed') } });
  }

  /** Records how the handler ended, or the failure that replaces an ending the store must not keep. */
  private async end(taskId: string, ending: TaskEnding): Promise<void> {
    const bounded = boundedEnding(ending, this.limits.maxTaskPayloadBytes);
    if (bounded.refused !== undefined) this.logger.warn(`Task ${taskId} failed: ${logText(bounded.refused)}`);
    await this.finish(taskId, (record) => ({ ...record, ...bounded.ending }));
  }

  /** Moves a still-live task to its next state; a cancelled or expired task keeps what it has. */
  private async finish(taskId: string, change: (record: McpTaskRecord) => McpTaskRecord): Promise<void> {
    let changed = false;
    const updated = await this.store.update(taskId, (record) => {
      changed = !isTerminal(record.status);
      return changed ? { ...change(record), lastUpdatedAt: this.isoNow() } : undefined;
    });
    if (updated && changed) this.events.emit(updated);
  }
}
