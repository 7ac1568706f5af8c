import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import {
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_TOOL_METADATA,
} from '../decorators/mcp-metadata.constants.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import type { ContextualProvider } from './mcp-handler.factory.js';
import { isSingleton, providerMethods } from './provider-methods.js';
import { McpPromptFactory } from './mcp-prompt.factory.js';
import { McpPromptRegistry } from './mcp-prompt.registry.js';
import { McpResourceFactory } from './mcp-resource.factory.js';
import { McpResourceRegistry } from './mcp-resource.registry.js';
import { McpToolFactory } from './mcp-tool.factory.js';
import { McpToolRegistry } from './mcp-tool.registry.js';

/**
 * Finds `@McpTool`, `@McpPrompt`, `@McpResource` and `@McpResourceTemplate` methods on every provider
 * and controller at bootstrap (of the server's `include` modules, when it names some) and registers
 * them. Duplicate names fail startup.
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly toolFactory: McpToolFactory,
    private readonly promptFactory: McpPromptFactory,
    private readonly resourceFactory: McpResourceFactory,
    @Inject(MCP_SERVER_OPTIONS) private readonly server: ResolvedMcpServerOptions,
  ) {}

  onModuleInit(): void {
    const scope = this.server.include ? { include: [...this.server.include] } : {};
    const wrappers = [...this.discovery.getProviders(scope), ...this.discovery.getControllers(scope)];
    for (const { wrapper, instance, methodName, method } of providerMethods(wrappers, this.scanner)) {
      // Request-scoped, durable and transient providers (and those depending on one) have no usable
      // singleton: their instance is resolved for each call.
      const contextual: ContextualProvider | undefined = isSingleton(wrapper)
        ? undefined
        : { token: wrapper.token, id: wrapper.id };
      this.register(instance, methodName, method, contextual);
    }
  }

  private register(
    instance: object,
    methodName: string,
    method: Function,
    contextual: ContextualProvider | undefined,
  ): void {
    const tool = Reflect.getMetadata(MCP_TOOL_METADATA, method);
    if (tool) this.tools.add(this.toolFactory.create(instance, methodName, tool, contextual));
    const prompt = Reflect.getMetadata(MCP_PROMPT_METADATA, method);
    if (prompt) this.prompts.add(this.promptFactory.create(instance, methodName, prompt, contextual));
    const resource = Reflect.getMetadata(MCP_RESOURCE_METADATA, method);
    if (resource)
      this.resources.resources.add(this.resourceFactory.createResource(instance, methodName, resource, contextual));
    const template = Reflect.getMetadata(MCP_RESOURCE_TEMPLATE_METADATA, method);
    if (template)
      this.resources.templates.add(this.resourceFactory.createTemplate(instance, methodName, template, contextual));
  }
}
