import { Injectable } from '@nestjs/common';
import { McpPromptRegistry } from '../discovery/mcp-prompt.registry.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpRequestTrace } from '../telemetry/mcp-request-trace.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import type { McpMethodGroup, MethodHandler, MethodResult } from '../calls/method-handler.js';
import { MrtrCallRunner } from '../calls/mrtr-call-runner.js';
import { MrtrEngine } from '../mrtr/mrtr-engine.js';
import { toGetPromptResult } from '../calls/prompt-result-normalizer.js';
import { ListPager } from '../calls/list-pager.js';

/** prompts/list and prompts/get. */
@Injectable()
export class PromptsMethods implements McpMethodGroup {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly mrtr: MrtrEngine,
    private readonly lists: ListPager,
  ) {}

  enabled(): boolean {
    return this.prompts.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.prompts = { listChanged: true };
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.PromptsList]: (exchange) => this.list(exchange),
    [McpMethod.PromptsGet]: (exchange, inbound) => this.get(exchange, inbound.trace),
  };
  readonly cacheable: readonly string[] = [McpMethod.PromptsList];

  private list(exchange: McpExchange): MethodResult {
    return this.lists.page(exchange, 'prompts', 'prompt', this.prompts);
  }

  private async get(exchange: McpExchange, trace?: McpRequestTrace): Promise<MethodResult> {
    const { params } = exchange;
    const name = params['name'];
    if (typeof name !== 'string') throw McpError.invalidParams('params.name must be a string');
    const prompt = this.prompts.get(name);
    if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${name}`, { name });
    this.lists.assertAllowed(exchange, 'prompt', prompt);
    const args = params['arguments'] ?? {};
    if (
      typeof args !== 'object' ||
      args === null ||
      Array.isArray(args) ||
      Object.values(args).some((v) => typeof v !== 'string')
    ) {
      throw McpError.invalidParams('params.arguments must be an object of strings');
    }
    const session = this.calls.begin(exchange, name, args, trace);
    let input: unknown = args;
    if (prompt.validate) {
      const validation = prompt.validate(args);
      if (!validation.ok)
        throw McpError.invalidParams(`Invalid arguments for prompt ${name}: ${validation.violations.join('; ')}`, {
          violations: validation.violations,
        });
      input = validation.value;
    }
    const outcome = await this.mrtr.run(session, exchange, prompt.handler.invoke, input, exchange);
    return outcome.kind === 'input_required' ? outcome.round : toGetPromptResult(outcome.value);
  }
}
