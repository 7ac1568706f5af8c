import type { RegisteredTool } from '../discovery/registered-tool.js';
import type { MrtrEngine } from '../mrtr/mrtr-engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import type { TaskExchangeCall } from './task-exchange.js';

/** What the replay of a task whose questions are all answered runs with. */
export interface TaskReplay {
  /** The task's tool, still registered to run as a task. */
  readonly tool: RegisteredTool;
  /** The tools/call the task started from (it runs on the transport of the tasks/update that resumes it). */
  readonly call: TaskExchangeCall;
  /** The replay session, primed with the task's ledger and answers. */
  readonly session: ReplaySession;
  /** The handler's input, rebuilt from the stored arguments. */
  readonly input: unknown;
}

/**
 * Rebuilds a task's call for its replay (or, for a queued task that never asked anything, its first
 * run), with `tool`, the task's tool as registered now. Throws
 * (and the task then fails) -32603 when the tool is gone or no longer runs as a task, -32602 when
 * the stored arguments no longer validate.
 */
export async function taskReplay(
  record: McpTaskRecord,
  tool: RegisteredTool | undefined,
  mrtr: MrtrEngine,
): Promise<TaskReplay> {
  if (!tool || tool.taskSupport === undefined) {
    throw new McpError(-32603, `The tool ${record.tool} of this task is no longer available`);
  }
  const call: TaskExchangeCall = {
    method: McpMethod.ToolsCall,
    params: { name: record.tool, arguments: record.arguments },
    protocolVersion: record.protocolVersion,
    clientCapabilities: record.clientCapabilities,
  };
  const resumed = {
    method: McpMethod.ToolsCall,
    target: record.tool,
    arguments: record.arguments,
    inputResponses: record.answers ?? {},
    clientCapabilities: record.clientCapabilities,
    principal: record.owner,
  };
  // A task that never asked anything has no ledger: a queued run then starts it afresh.
  const session = record.replay
    ? mrtr.resume(resumed, record.replay)
    : mrtr.begin({ ...resumed, requestState: undefined });
  // The stored arguments are shared and frozen: a handler gets its own copy, as on its first run.
  const input = tool.validate ? await validatedInput(tool, record.arguments) : structuredClone(record.arguments);
  return { tool, call, session, input };
}

/** The DTO-validated input of a resumed task; arguments that no longer validate fail the task. */
async function validatedInput(tool: RegisteredTool, args: Record<string, unknown>): Promise<unknown> {
  // A Standard Schema tool may validate asynchronously: its replay waits for the library, as its call did.
  const validation = tool.validateAsync ? await tool.validateAsync(args) : tool.validate!(args);
  if (!validation.ok) throw McpError.invalidParams(`Invalid arguments for tool ${tool.name}`);
  return validation.value;
}
