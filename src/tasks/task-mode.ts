import type { RegisteredTool } from '../discovery/registered-tool.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { isModernProtocolVersion } from '../protocol/protocol-version.js';
import { declaresTasks, REQUIRED_TASKS_CAPABILITY } from '../protocol/task-support.js';

/** How one tools/call runs: synchronously, as a task from the start, or as a task once the handler says so. */
export type TaskMode = 'sync' | 'immediate' | 'handler';

/**
 * How a call runs. A tool that requires a task, called by a client that did not declare the
 * extension on this request (or by a 2025-era client), is refused with -32021.
 */
export function taskModeOf(tool: RegisteredTool, exchange: McpExchange): TaskMode {
  if (tool.taskSupport === undefined) return 'sync';
  const declared = isModernProtocolVersion(exchange.protocolVersion) && declaresTasks(exchange.clientCapabilities);
  if (!declared) {
    if (tool.taskSupport === 'required') throw McpError.missingCapability({ ...REQUIRED_TASKS_CAPABILITY });
    return 'sync';
  }
  return tool.taskCreation === 'handler' ? 'handler' : 'immediate';
}
