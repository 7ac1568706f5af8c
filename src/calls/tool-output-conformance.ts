import type { LoggerService } from '@nestjs/common';
import type { RegisteredTool } from '../discovery/registered-tool.js';
import { logText } from '../protocol/log-text.js';
import type { CallToolResult } from '../protocol/wire-types.js';
import type { ToolOutputOutcome } from '../schema/tool-output-check.js';
import { toCallToolResult, toolErrorResult } from './tool-result-normalizer.js';

/** The most violation lines a tool error lists. */
const MAX_LINES = 10;

/**
 * A handler's return value as the CallToolResult the client receives, held to the tool's output
 * schema (the spec: a server MUST send structured results that conform to it). A tool without one,
 * and an `isError` result, pass as {@link toCallToolResult} makes them, and nothing else runs.
 * Otherwise a conforming `structuredContent` passes (the same result for a JSON Schema; for a
 * Standard Schema `output`, the value the schema answered, see `McpToolOptions.output`); a missing
 * or non-conforming one becomes an `isError` result naming the failing paths and what each
 * expected, never the values, with one ERROR line for the developer. Synchronous unless a Standard
 * Schema answers with a promise.
 */
export function conformingToolResult(
  tool: Pick<RegisteredTool, 'name' | 'source' | 'checkOutput'>,
  value: unknown,
  logger: Pick<LoggerService, 'error'>,
): CallToolResult | Promise<CallToolResult> {
  const result = toCallToolResult(value);
  const { checkOutput } = tool;
  if (checkOutput === undefined || result.isError === true) return result;
  const structured = result.structuredContent;
  if (structured === undefined) {
    return refused(tool, ['structuredContent: is required, as the tool declares an outputSchema'], logger);
  }
  let outcome: ToolOutputOutcome | Promise<ToolOutputOutcome>;
  try {
    outcome = checkOutput(structured);
  } catch (error) {
    return unreadable(tool, error, logger);
  }
  if (!isPromise(outcome)) return settled(tool, value, result, outcome, logger);
  // Never rejects: the call path returns this promise as it is.
  return outcome
    .then((answer) => settled(tool, value, result, answer, logger))
    .catch((error: unknown) => unreadable(tool, error, logger));
}

function settled(
  tool: Pick<RegisteredTool, 'name' | 'source'>,
  value: unknown,
  result: CallToolResult,
  outcome: ToolOutputOutcome,
  logger: Pick<LoggerService, 'error'>,
): CallToolResult {
  if (!outcome.ok) return refused(tool, outcome.violations, logger);
  if (outcome.value === result.structuredContent) return result;
  // A Standard Schema's value (defaults filled, unknown keys stripped): what its advertised schema
  // describes. When the handler returned the bare object, its text is made from that value too.
  const structuredContent = outcome.value as Record<string, unknown>;
  return value === result.structuredContent ? toCallToolResult(structuredContent) : { ...result, structuredContent };
}

function refused(
  tool: Pick<RegisteredTool, 'name' | 'source'>,
  violations: readonly string[],
  logger: Pick<LoggerService, 'error'>,
): CallToolResult {
  const shown = violations.slice(0, MAX_LINES);
  const more = violations.length - shown.length;
  logger.error(
    `Tool ${logText(tool.name)} (${tool.source}) returned a result that does not match its outputSchema; the client got an isError result: ${logText(violations.join('; '), 1000)}`,
  );
  return toolErrorResult(
    `The tool ${tool.name} returned a result that does not match its outputSchema (an error in the server, not in the arguments):\n- ${shown.join('\n- ')}${more > 0 ? `\n- … and ${more} more` : ''}`,
  );
}

/** The check itself threw (a getter or `toJSON` of the result, or the schema library). */
function unreadable(
  tool: Pick<RegisteredTool, 'name' | 'source'>,
  error: unknown,
  logger: Pick<LoggerService, 'error'>,
): CallToolResult {
  logger.error(
    `Tool ${logText(tool.name)} (${tool.source}): its result could not be checked against its outputSchema: ${logText(error)}`,
  );
  return toolErrorResult(
    `The tool ${tool.name} returned a result that could not be checked against its outputSchema (an error in the server, not in the arguments).`,
  );
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
