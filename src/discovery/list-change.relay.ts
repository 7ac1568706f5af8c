import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { McpPromptRegistry } from './mcp-prompt.registry.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpToolRegistry } from './mcp-tool.registry.js';
import { McpEventBus } from '../events/mcp-event-bus.js';

/**
 * Publishes each change of the tool, prompt and resource registries as a `list_changed` event. It
 * starts listening once the application has bootstrapped, so the registrations of discovery at
 * startup announce nothing (no stream can be open yet, and other nodes' lists did not change).
 */
@Injectable()
export class ListChangeRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    private readonly bus: McpEventBus,
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe.push(
      this.tools.onChange(() => this.bus.publish({ kind: 'list_changed', list: 'tools' })),
      this.prompts.onChange(() => this.bus.publish({ kind: 'list_changed', list: 'prompts' })),
      this.resources.onChange(() => this.bus.publish({ kind: 'list_changed', list: 'resources' })),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }
}
