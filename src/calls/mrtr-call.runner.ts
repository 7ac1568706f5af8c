import { Injectable, Logger } from '@nestjs/common';
import { McpPrincipalSource } from '../core/mcp-principal.source.js';
import { type McpCallOutcome, MrtrEngine } from '../mrtr/mrtr.engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';
import { logText } from '../telemetry/log-text.js';

/**
 * Runs the handler of a tools/call, prompts/get or resources/read: opens its replay session
 * (verifying a present requestState before anything else), then invokes the handler with the
 * session and the exchange bound to the async context.
 */
@Injectable()
export class MrtrCallRunner {
  private readonly logger = new Logger('McpElicitation');

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

  /**
   * Runs the handler (with `args`) with the call bound to the async scope. The outcome is the handler's value or
   * the sealed input-required round, even when a catch block, interceptor or exception filter of
   * the application intercepted the signal on its way out (that is logged, since the code that
   * caught it ran).
   */
  async invoke<A extends unknown[]>(
    session: ReplaySession,
    exchange: McpExchange,
    handler: (...args: A) => unknown,
    ...args: A
  ): Promise<McpCallOutcome> {
    return this.noted(await this.mrtr.run(session, exchange, handler, ...args), exchange);
  }

  private noted(outcome: McpCallOutcome, exchange: McpExchange): McpCallOutcome {
    if (outcome.kind === 'input_required' && outcome.intercepted) {
      this.logger.warn(
        `${exchange.method} ${logText(exchange.params['name'] ?? exchange.params['uri'])}: the input request was intercepted on its way out ` +
          '(a catch block, an interceptor or an exception filter) and the round was answered anyway. ' +
          'Code that caught it has run; in handlers, rethrow it with `if (isInputRequired(e)) throw e;`',
      );
    }
    return outcome;
  }
}
