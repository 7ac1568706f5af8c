import { Injectable } from '@nestjs/common';
import { mcpCallScope } from '../mrtr/mcp-call-scope.js';

/**
 * Reports progress of the MCP call in progress as `notifications/progress` on its response stream
 * (which turns an HTTP response into SSE). It does nothing when the request carried no
 * `_meta.progressToken`, so handlers may call it unconditionally. A report is dropped while the
 * client is behind on its stream (the next one supersedes it): reporting never waits and never
 * piles up memory.
 *
 * @publicApi
 */
@Injectable()
export class McpProgressReporter {
  /** `progress` should grow with each call; `total` is optional. */
  report(progress: number, total?: number, message?: string): void {
    const exchange = mcpCallScope.getStore()?.exchange;
    if (exchange?.progressToken === undefined || exchange.signal.aborted) return;
    void exchange.notify({
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: {
        progressToken: exchange.progressToken,
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      },
    });
  }

  /** Aborted when the client closes the connection: long work should stop. */
  get signal(): AbortSignal | undefined {
    return mcpCallScope.getStore()?.exchange.signal;
  }
}
