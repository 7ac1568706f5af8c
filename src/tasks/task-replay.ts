import type { RegisteredTool } from '../discovery/registered-tool.js';
import type { MrtrEngine } from '../mrtr/mrtr.engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import type { McpTaskRecord } from '../task-store/mcp-task.record.js';
import { type TaskProgressRecorder, taskExchange } from './task-exchange.js';

/** What the replay of a task whose questions are all answered runs with. */
export interface TaskReplay {
  /** The tools/call the task started from, on the transport of the tasks/update that resumes it. */
  readonly exchange: McpExchange;
  /** The replay session, primed with the task's ledger and answers. */
  readonly session: ReplaySession;
  /** The handler's input, rebuilt from the stored arguments. */
  readonly input: unknown;
}

/**
 * Rebuilds a task's call for its replay: `request` is the tasks/update exchange, `signal` the
 * replay's. Throws -32602 when the stored arguments no longer validate (the task then fails).
 */
export function taskReplay(
  record: McpTaskRecord,
  tool: RegisteredTool,
  request: McpExchange,
  signal: AbortSignal,
  progress: TaskProgressRecorder,
  mrtr: MrtrEngine,
): TaskReplay {
  const exchange = taskExchange(
    {
      ...request,
      method: McpMethod.ToolsCall,
      params: { name: record.tool, arguments: record.arguments },
      protocolVersion: record.protocolVersion,
      clientCapabilities: record.clientCapabilities,
    },
    signal,
    () => record.taskId,
    progress,
  );
  const session = mrtr.resume(
    {
      method: McpMethod.ToolsCall,
      target: record.tool,
      arguments: record.arguments,
      inputResponses: record.answers ?? {},
      clientCapabilities: record.clientCapabilities,
      principal: record.owner,
    },
    record.replay!,
  );
  // The stored arguments are shared and frozen: a handler gets its own copy, as on its first run.
  const input = tool.validate ? validatedInput(tool, record.arguments) : structuredClone(record.arguments);
  return { exchange, session, input };
}

/** The DTO-validated input of a resumed task; arguments that no longer validate fail the task. */
function validatedInput(tool: RegisteredTool, args: Record<string, unknown>): unknown {
  const validation = tool.validate!(args);
  if (!validation.ok) throw McpError.invalidParams(`Invalid arguments for tool ${tool.name}`);
  return validation.value;
}
