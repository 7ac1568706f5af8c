import type { Logger } from '@nestjs/common';
import { conformingToolResult } from '../calls/tool-output-conformance.js';
import type { McpCallOutcome, MrtrEngine } from '../mrtr/mrtr-engine.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { type TaskCallScope, taskCallScope } from './task-call-scope.js';
import type { TaskRun } from './task-call.js';

/**
 * Runs a task's handler under the task's scope, through the same call runner as a plain
 * tools/call; a tool with an output schema has its result held to it here, as a plain call's is.
 */
export function invokeTaskHandler(
  mrtr: MrtrEngine,
  run: TaskRun,
  exchange: McpExchange,
  scope: TaskCallScope,
  logger: Logger,
): Promise<McpCallOutcome> {
  const handler = () => taskCallScope.run(scope, () => run.tool.handler.invoke(run.input, exchange));
  const outcome = mrtr.run(run.session, exchange, handler);
  if (!run.tool.checkOutput) return outcome;
  return outcome.then(async (ended) =>
    ended.kind === 'complete'
      ? { kind: 'complete', value: await conformingToolResult(run.tool, ended.value, logger) }
      : ended,
  );
}
