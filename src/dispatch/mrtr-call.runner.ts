import { Injectable, Logger } from '@nestjs/common';
import { isInputRequired } from '../mrtr/exceptions/input-required.exception.js';
import { McpPrincipalSource } from '../mrtr/mcp-principal.source.js';
import { MrtrEngine, sealInputRequired } from '../mrtr/mrtr.engine.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { exchangeStorage } from './exchange.storage.js';

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

  /** Verifies the retry state and binds the call; throws -32602 for a bad requestState. */
  begin(exchange: McpExchange, target: string, args: unknown): ReplaySession {
    const { params } = exchange;
    return this.mrtr.begin({
      method: exchange.method,
      target,
      arguments: args,
      requestState: params['requestState'],
      inputResponses: params['inputResponses'],
      clientCapabilities: exchange.clientCapabilities,
      principal: this.principals.resolve(exchange),
    });
  }

  /** Resolves to the handler's value, or to a sealed InputRequiredResult when it needs input. */
  async invoke(session: ReplaySession, exchange: McpExchange, handler: () => Promise<unknown>): Promise<unknown> {
    try {
      const value = await exchangeStorage.run(exchange, () => this.mrtr.run(session, handler));
      if (session.lastInputRequired && !isInputRequiredValue(value)) {
        this.logger.warn(
          `${exchange.method} ${String(exchange.params['name'] ?? exchange.params['uri'])} swallowed an input request in a catch block; ` +
            'rethrow it with `if (isInputRequired(e)) throw e;` so the question reaches the client',
        );
      }
      return value;
    } catch (error) {
      // The signal escaped our interceptor only when a guard or pipe asked for input: still a round.
      if (isInputRequired(error)) return this.mrtr.run(session, () => sealInputRequired(error));
      throw error;
    } finally {
      session.close();
    }
  }
}

function isInputRequiredValue(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'input_required';
}
