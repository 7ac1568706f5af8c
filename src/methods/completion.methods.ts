import { Injectable } from '@nestjs/common';
import type { McpCompleter } from '../decorators/mcp-completer.js';
import { McpPromptRegistry } from '../discovery/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import type { ServerCapabilities } from '../protocol/wire-types.js';
import type { McpMethodGroup, MethodHandler } from '../calls/method-handler.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import { ownValue } from '../protocol/own-property.js';

const MAX_VALUES = 100;

/** completion/complete for prompt arguments and resource-template variables. */
@Injectable()
export class CompletionMethods implements McpMethodGroup {
  constructor(
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
  ) {}

  enabled(): boolean {
    return this.prompts.size > 0 || this.resources.templates.size > 0;
  }

  contribute(capabilities: ServerCapabilities): void {
    capabilities.completions = {};
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.CompletionComplete]: (exchange) => this.complete(exchange),
  };

  private async complete(exchange: McpExchange): Promise<Record<string, unknown>> {
    const { ref, argument, context } = exchange.params;
    if (
      !isJsonObject(ref) ||
      !isJsonObject(argument) ||
      typeof argument['name'] !== 'string' ||
      typeof argument['value'] !== 'string'
    ) {
      throw McpError.invalidParams('completion/complete needs ref and argument { name, value }');
    }
    const completer = this.completerFor(ref, argument['name']);
    const contextArguments =
      isJsonObject(context) && isJsonObject(context['arguments'])
        ? (context['arguments'] as Record<string, string>)
        : {};
    const candidates = completer ? await completer(argument['value'], { arguments: contextArguments }) : [];
    const prefix = argument['value'].toLowerCase();
    const matching = candidates.filter((c) => c.toLowerCase().startsWith(prefix));
    return {
      completion: {
        values: matching.slice(0, MAX_VALUES),
        total: matching.length,
        hasMore: matching.length > MAX_VALUES,
      },
    };
  }

  private completerFor(ref: Record<string, unknown>, argument: string): McpCompleter | undefined {
    if (ref['type'] === 'ref/prompt' && typeof ref['name'] === 'string') {
      const prompt = this.prompts.get(ref['name']);
      if (!prompt) throw McpError.invalidParams(`Unknown prompt: ${ref['name']}`, { name: ref['name'] });
      return prompt.completions(argument);
    }
    if (ref['type'] === 'ref/resource' && typeof ref['uri'] === 'string') {
      const template = this.resources.templates.get(ref['uri']);
      if (!template) throw McpError.invalidParams(`Unknown resource template: ${ref['uri']}`, { uri: ref['uri'] });
      // The argument name is the client's: only a completer the template declares answers it.
      return ownValue(template.completers, argument);
    }
    throw McpError.invalidParams('ref must be { type: "ref/prompt", name } or { type: "ref/resource", uri }');
  }
}
