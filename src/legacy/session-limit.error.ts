import type { McpLimitsOptions } from '../core/mcp-limits.options.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';

/**
 * A request refused because it would take a 2025-era session past one of its bounds: a JSON-RPC
 * error (default -32602) whose message names the option, with `data: { limit, max }` so a client
 * can tell which bound it hit. HTTP 200 by default, like every error of the 2025-era leg's
 * dispatch; a refusal before dispatch passes its own status.
 */
export function limitExceeded(
  limit: keyof McpLimitsOptions,
  max: number,
  message: string,
  code: number = McpErrorCode.InvalidParams,
  httpStatus = 200,
): McpError {
  return new McpError(code, `${message} (limits.${limit}: ${max})`, { limit, max }, httpStatus);
}
