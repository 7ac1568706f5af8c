import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { McpEventBus } from '../events/mcp-event-bus.js';
import { appLinkProblem } from './mcp-apps-support.js';
import type { McpPromptOptions } from '../decorators/mcp-prompt.decorator.js';
import type { McpResourceTemplateOptions } from '../decorators/mcp-resource-template.decorator.js';
import type { McpResourceOptions } from '../decorators/mcp-resource.decorator.js';
import type { McpToolOptions } from '../decorators/mcp-tool.decorator.js';
import { McpPromptFactory } from './mcp-prompt.factory.js';
import { McpPromptRegistry } from './mcp-prompt.registry.js';
import { McpResourceFactory } from './mcp-resource.factory.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpToolFactory } from './mcp-tool.factory.js';
import { McpToolRegistry } from './mcp-tool.registry.js';

/**
 * Adds and removes tools, prompts and resources while the server runs, and tells subscribers that a
 * resource changed. Each entry is a method of an object (ideally one of your providers), wrapped
 * exactly like a decorated method: your guards, interceptors, pipes and filters apply. Clients
 * listening with `subscriptions/listen` are told about every change. Inject it (the global server's)
 * or reach another server's through `McpServers.get(path).registrar`.
 *
 * @publicApi
 */
@Injectable()
export class McpRegistrar implements OnApplicationBootstrap {
  /** Before that, tools and their app resources may come in any order (the startup check follows). */
  private started = false;

  /** @internal Nest builds it, once per server. */
  constructor(
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly events: McpEventBus,
    private readonly toolFactory: McpToolFactory,
    private readonly promptFactory: McpPromptFactory,
    private readonly resourceFactory: McpResourceFactory,
  ) {}

  onApplicationBootstrap(): void {
    this.started = true;
  }

  /**
   * Adds a tool. Once the application has started, a tool linked to an MCP App must name an app
   * resource already registered (add the resource first), as the startup check requires of the
   * tools declared with decorators.
   */
  addTool(instance: object, methodName: string, options: McpToolOptions): void {
    const tool = this.toolFactory.create(instance, methodName, options);
    const problem = this.started ? appLinkProblem(tool, this.resources) : undefined;
    if (problem !== undefined) throw new Error(problem);
    this.tools.add(tool);
  }

  /** Removes the tool named `name`; false when there is none. */
  removeTool(name: string): boolean {
    return this.tools.remove(name);
  }

  /** Adds a prompt; a name already registered is refused (the error names both methods). */
  addPrompt(instance: object, methodName: string, options: McpPromptOptions): void {
    this.prompts.add(this.promptFactory.create(instance, methodName, options));
  }

  /** Removes the prompt named `name`; false when there is none. */
  removePrompt(name: string): boolean {
    return this.prompts.remove(name);
  }

  /** Adds a fixed resource; a URI already registered is refused. */
  addResource(instance: object, methodName: string, options: McpResourceOptions): void {
    this.resources.resources.add(this.resourceFactory.createResource(instance, methodName, options));
  }

  /** Removes the fixed resource at `uri`; false when there is none. */
  removeResource(uri: string): boolean {
    return this.resources.resources.remove(uri);
  }

  /** Adds a resource template; a URI template already registered is refused. */
  addResourceTemplate(instance: object, methodName: string, options: McpResourceTemplateOptions): void {
    this.resources.templates.add(this.resourceFactory.createTemplate(instance, methodName, options));
  }

  /** Removes the resource template registered as `uriTemplate`; false when there is none. */
  removeResourceTemplate(uriTemplate: string): boolean {
    return this.resources.templates.remove(uriTemplate);
  }

  /**
   * Sends `notifications/resources/updated` to the streams subscribed to `uri` (and to the 2025-era
   * sessions subscribed with `resources/subscribe`): on every node when the event bus is shared.
   */
  notifyResourceUpdated(uri: string): void {
    this.events.publish({ kind: 'resource_updated', uri });
  }
}
