import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { McpPromptRegistry } from './mcp-prompt.registry.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpToolRegistry } from './mcp-tool.registry.js';
import { type McpEvent, McpEventBus } from '../events/mcp-event-bus.js';

type ListName = Extract<McpEvent, { kind: 'list_changed' }>['list'];

/**
 * Publishes the changes of the tool, prompt and resource registries as `list_changed` events, at
 * most one per list and turn of the event loop: a burst of registrations (a plugin adding 200
 * tools) is one notification on every stream, not 200 that would each send every client back for
 * the whole list. It starts listening once the application has bootstrapped, so the registrations
 * of discovery at startup announce nothing (no stream can be open yet, and other nodes' lists did
 * not change).
 */
@Injectable()
export class ListChangeRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly unsubscribe: Array<() => void> = [];
  /** The lists changed in this turn, each published once at its end. */
  private readonly pending = new Map<ListName, NodeJS.Immediate>();

  constructor(
    private readonly bus: McpEventBus,
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe.push(
      this.tools.onChange(() => this.changed('tools')),
      this.prompts.onChange(() => this.changed('prompts')),
      this.resources.onChange(() => this.changed('resources')),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    for (const publish of this.pending.values()) clearImmediate(publish);
    this.pending.clear();
  }

  private changed(list: ListName): void {
    if (this.pending.has(list)) return;
    const publish = setImmediate(() => {
      this.pending.delete(list);
      this.bus.publish({ kind: 'list_changed', list });
    });
    this.pending.set(list, publish);
  }
}
