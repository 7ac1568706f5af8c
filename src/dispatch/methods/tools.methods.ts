import { Injectable } from '@nestjs/common';
import { McpToolRegistry } from '../../discovery/mcp-tool.registry.js';
import { MrtrCallRunner } from '../mrtr-call.runner.js';
import { McpError } from '../../protocol/mcp.error.js';
import type { McpExchange } from '../../protocol/mcp-exchange.js';
import { McpMethod } from '../../protocol/mcp-methods.js';
import type { ServerCapabilities } from '../../protocol/wire-types.js';
import type { McpInbound } from '../mcp-inbound.js';
import type { McpMethodGroup, MethodHandler } from '../method-handler.js';
import { ListPager } from '../list-pager.js';
import { ResultStamp } from '../result-stamp.js';
import { ExactlyOnceCompletion } from '../exactly-once.completion.js';
import { isInputRequiredResult, toCallToolResult, toolErrorResult } from '../tool-result.normalizer.js';
import { isJsonObject } from '../../protocol/is-json-object.js';


/** tools/list and tools/call. */
@Injectable()
export class ToolsMethods implements McpMethodGroup {
  constructor(
    private readonly tools: McpToolRegistry,
    private readonly calls: MrtrCallRunner,
    private readonly lists: ListPager,
    private readonly stamp: ResultStamp,
    private readonly once: ExactlyOnceCompletion,
  ) {}

  enabled(): boolean {
    return this.tools.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.tools = { listChanged: true };
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.ToolsList]: (exchange) => this.listTools(exchange),
    [McpMethod.ToolsCall]: (exchange, inbound) => this.callTool(exchange, inbound),
  };

  private listTools(exchange: McpExchange): Record<string, unknown> {
    return this.lists.page(exchange, 'tools', 'tool', this.tools);
  }

  private async callTool(exchange: McpExchange, inbound: McpInbound): Promise<Record<string, unknown>> {
    const { params } = exchange;
    const name = params['name'];
    if (typeof name !== 'string') throw McpError.invalidParams('params.name must be a string');
    const tool = this.tools.get(name);
    if (!tool) throw McpError.invalidParams(`Unknown tool: ${name}`, { name });
    this.lists.assertAllowed(exchange, 'tool', tool);
    const args = params['arguments'] ?? {};
    if (!isJsonObject(args)) throw McpError.invalidParams('params.arguments must be an object');
    if (tool.headerParams.length > 0) inbound.verifyToolHeaders?.(tool.headerParams, args);

    const session = this.calls.begin(exchange, name, args);
    let input: unknown = args;
    if (tool.validate) {
      const validation = tool.validate(args);
      if (!validation.ok) {
        return this.stamp.complete(toolErrorResult(`Invalid arguments for tool ${name}:\n- ${validation.violations.join('\n- ')}`));
      }
      input = validation.value;
    }
    return this.once.run(session, tool.exactlyOnce, async () => {
      try {
        const value = await this.calls.invoke(session, exchange, () => tool.handler.invoke(input, exchange));
        return this.stamp.stamp(isInputRequiredResult(value) ? value : toCallToolResult(value));
      } catch (error) {
        if (error instanceof McpError) throw error;
        const message = error instanceof Error ? error.message : String(error);
        return this.stamp.complete(toolErrorResult(message || 'Tool failed'));
      }
    });
  }
}

