import type { Logger } from '@nestjs/common';
import { toCallToolResult, toolErrorResult } from '../calls/tool-result-normalizer.js';
import type { CallToolResult } from '../protocol/wire-types.js';
import type { McpCallOutcome } from '../mrtr/mrtr-engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import { boundedEnding, overBudget, type TaskEnding } from '../task-store/task-payload.js';
import { isByteBudgetRefusal } from '../task-store/task-quota-exceeded.exception.js';
import { logText } from '../protocol/log-text.js';
import type { TaskRecordWriter, TaskTransition } from './task-record-writer.js';
import { askedRecord, endedRecord } from './task-transitions.js';

/**
 * Records in the store how a task's background handler ended: its result, the questions it asked
 * (`input_required`), or its failure. A task cancelled (or expired) meanwhile keeps what it has.
 */
export class TaskEndingRecorder {
  constructor(
    private readonly writer: TaskRecordWriter,
    private readonly maxTaskPayloadBytes: number,
    private readonly logger: Logger,
  ) {}

  /**
   * Records how `run`, the task's handler, ended, unless `keep` says by then that its ending must be
   * dropped (a queued run handed back). Never rejects: an ending that cannot be written (the store
   * is down) is logged.
   */
  async settle(
    taskId: string,
    session: ReplaySession,
    run: Promise<McpCallOutcome>,
    keep: () => boolean = () => true,
  ): Promise<void> {
    const recorded = run.then(
      (outcome) => (keep() ? this.recordOutcome(taskId, session, outcome) : undefined),
      (error: unknown) => (keep() ? this.recordError(taskId, error) : undefined),
    );
    await this.logged(taskId, recorded);
  }

  /** Fails a task whose handler could not run. Never rejects, as {@link settle}. */
  async fail(taskId: string, error: McpError): Promise<void> {
    await this.logged(taskId, this.recordError(taskId, error));
  }

  /** A completed handler completes the task; one that asked for input parks it in `input_required`. */
  private async recordOutcome(taskId: string, session: ReplaySession, outcome: McpCallOutcome): Promise<void> {
    if (outcome.kind === 'complete') {
      await this.end(taskId, completedWith(toCallToolResult(outcome.value)));
      return;
    }
    const signal = session.lastInputRequired!;
    const replay = session.nextPayload(signal);
    await this.withinBudget(taskId, 'questions', (record, now) =>
      askedRecord(record, signal.inputRequests, replay, now),
    );
  }

  /** A protocol error fails the task; anything else the tool threw is a tool error (completed, isError). */
  private async recordError(taskId: string, error: unknown): Promise<void> {
    await this.end(taskId, endingOf(error));
  }

  /** Records how the handler ended, or the failure that replaces an ending the store must not keep. */
  private async end(taskId: string, ending: TaskEnding): Promise<void> {
    const bounded = boundedEnding(ending, this.maxTaskPayloadBytes);
    if (bounded.refused !== undefined) this.logger.warn(`Task ${taskId} failed: ${logText(bounded.refused)}`);
    const what = bounded.ending.error ? 'error' : 'result';
    await this.withinBudget(taskId, what, (record, now) => endedRecord(record, bounded.ending, now));
  }

  /**
   * Writes what the handler added to the task within its caller's byte budget; past it, the task
   * fails instead (written whatever the budget: a failure is a few hundred bytes, and it ends the task).
   */
  private async withinBudget(taskId: string, what: string, transition: TaskTransition): Promise<void> {
    try {
      await this.writer.applyWithinBudget(taskId, transition);
    } catch (error) {
      if (!isByteBudgetRefusal(error)) throw error;
      const refused = overBudget(what, this.writer.maxStoredBytes!);
      this.logger.warn(`Task ${taskId} failed: ${logText(refused.statusMessage!)}`);
      await this.writer.apply(taskId, (record, now) => endedRecord(record, refused, now));
    }
  }

  private async logged(taskId: string, recording: Promise<void>): Promise<void> {
    try {
      await recording;
    } catch (error) {
      this.logger.error(`Could not record the end of task ${taskId}`, error instanceof Error ? error.stack : error);
    }
  }
}

/** The ending of a handler that threw `error`. */
function endingOf(error: unknown): TaskEnding {
  if (error instanceof McpError) {
    const { code, message, data } = error;
    return { status: 'failed', statusMessage: message, error: { code, message, ...(data !== undefined && { data }) } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return completedWith(toolErrorResult(message || 'Tool failed'));
}

/**
 * A completed task: its result in the 2026-07-28 shape (a `CallToolResult` with `resultType`, as
 * the same tool's synchronous answer has), and a status message that says it finished rather than
 * the last progress report.
 */
function completedWith(result: CallToolResult): TaskEnding {
  const isError = result.isError === true;
  return {
    status: 'completed',
    statusMessage: isError ? 'Completed with a tool error' : 'Completed',
    result: { ...result, resultType: 'complete' },
  };
}
