import { failure } from '../protocol/rpc-outcome.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpTaskQuotaExceededException } from '../task-store/task-quota-exceeded.exception.js';
import { MCP_RATE_LIMITED, McpRateLimitedException } from './mcp-rate-limited.exception.js';

describe('McpRateLimitedException', () => {
  it('is an McpError with 429, Retry-After in whole seconds (rounded up) and data.retryAfterMs', () => {
    const error = new McpRateLimitedException(1500);
    expect(error).toBeInstanceOf(McpError);
    expect(error.httpStatus).toBe(429);
    expect(error.httpHeaders).toEqual({ 'retry-after': '2' });
    expect(failure(7, error)).toEqual({
      status: 429,
      headers: { 'retry-after': '2' },
      response: {
        jsonrpc: '2.0',
        id: 7,
        error: {
          code: MCP_RATE_LIMITED,
          message: 'Rate limit exceeded: retry after 2 s',
          data: { retryAfterMs: 1500 },
        },
      },
    });
  });

  it('leaves outcomes of errors without headers as they were', () => {
    expect(failure(1, McpError.invalidRequest('x'))).not.toHaveProperty('headers');
  });

  it('shares its code with the task quota error, so a client handles both alike', () => {
    const quota = new McpTaskQuotaExceededException('maxRunningTasksPerCaller', 1000, 5);
    expect(quota.code).toBe(MCP_RATE_LIMITED);
    expect([quota.httpStatus, quota.httpHeaders]).toEqual([429, { 'retry-after': '1' }]);
  });
});
