import { Injectable } from '@nestjs/common';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import { MrtrEngine } from '../mrtr/mrtr-engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';

/**
 * Opens the replay session of a tools/call, prompts/get or resources/read (verifying a present
 * requestState before anything else) with the caller's principal, and tells the trace; the method
 * then runs the handler in it with `MrtrEngine.run`.
 */
@Injectable()
export class MrtrCallRunner {
  constructor(
    private readonly mrtr: MrtrEngine,
    private readonly principals: McpPrincipalSource,
  ) {}

  /**
   * Verifies the retry state and binds the call; throws -32602 for a bad requestState. The trace
   * learns the principal first (a refused requestState is audited with it), then the session.
   */
  begin(exchange: McpExchange, target: string, args: unknown, trace?: McpRequestTrace): ReplaySession {
    const { params } = exchange;
    const principal = this.principals.resolve(exchange);
    if (trace) trace.principal = principal;
    const session = this.mrtr.begin({
      method: exchange.method,
      target,
      arguments: args,
      requestState: params['requestState'],
      inputResponses: params['inputResponses'],
      clientCapabilities: exchange.clientCapabilities,
      principal,
    });
    if (trace) trace.replay = session;
    return session;
  }
}
