import { Inject, Injectable } from '@nestjs/common';
import { McpPromptRegistry } from '../../discovery/mcp-prompt.registry.js';
import { paginate } from '../../discovery/paginate.js';
import type { RegisteredPrompt } from '../../discovery/registered-prompt.js';
import { MCP_OPTIONS } from '../../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../../mcp.options.js';
import { McpError } from '../../protocol/mcp.error.js';
import type { McpExchange } from '../../protocol/mcp-exchange.js';
import { McpMethod } from '../../protocol/mcp-methods.js';
import type { ServerCapabilities } from '../../protocol/wire-types.js';
import { AllowAllAccessPolicy } from '../allow-all.access-policy.js';
import { McpAccessPolicy, type McpAccessTarget } from '../mcp-access-policy.js';
import type { McpMethodGroup, MethodHandler } from '../method-handler.js';
import { MrtrCallRunner } from '../mrtr-call.runner.js';
import { toGetPromptResult } from '../prompt-result.normalizer.js';
import { ResultStamp } from '../result-stamp.js';
import { isInputRequiredResult } from '../tool-result.normalizer.js';

/** prompts/list and prompts/get. */
@Injectable()
export class PromptsMethods implements McpMethodGroup {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly access: McpAccessPolicy,
    private readonly stamp: ResultStamp,
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  enabled(): boolean {
    return this.prompts.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.prompts = { listChanged: true };
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.PromptsList]: (exchange) => this.list(exchange),
    [McpMethod.PromptsGet]: (exchange) => this.get(exchange),
  };

  private list(exchange: McpExchange): Record<string, unknown> {
    const all =
      this.access instanceof AllowAllAccessPolicy
        ? this.prompts.definitions()
        : this.prompts.values().filter((p) => this.access.isVisible(exchange, accessTarget(p))).map((p) => p.definition);
    const page = paginate(all, exchange.params['cursor'], this.options.pageSize);
    return this.stamp.cacheable(page.nextCursor ? { prompts: page.items, nextCursor: page.nextCursor } : { prompts: page.items });
  }

  private async get(exchange: McpExchange): Promise<Record<string, unknown>> {
    const { params } = exchange;
    const name = params['name'];
    if (typeof name !== 'string') throw McpError.invalidParams('params.name must be a string');
    const prompt = this.prompts.get(name);
    if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${name}`, { name });
    this.access.assertAllowed(exchange, accessTarget(prompt));
    const args = params['arguments'] ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args) || Object.values(args).some((v) => typeof v !== 'string')) {
      throw McpError.invalidParams('params.arguments must be an object of strings');
    }
    const session = this.calls.begin(exchange, name, args);
    let input: unknown = args;
    if (prompt.validate) {
      const validation = prompt.validate(args);
      if (!validation.ok) throw McpError.invalidParams(`Invalid arguments for prompt ${name}: ${validation.violations.join('; ')}`, { violations: validation.violations });
      input = validation.value;
    }
    const value = await this.calls.invoke(session, exchange, () => prompt.handler.invoke(input, exchange));
    return this.stamp.stamp(isInputRequiredResult(value) ? { ...value } : { ...toGetPromptResult(value) });
  }
}

function accessTarget(prompt: RegisteredPrompt): McpAccessTarget {
  return { kind: 'prompt', name: prompt.name, handlerClass: prompt.handler.handlerClass, handlerName: prompt.handler.handlerName };
}
