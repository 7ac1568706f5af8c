import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { MCP_TOOL_METADATA } from '../decorators/mcp-metadata.constants.js';
import type { McpToolOptions } from '../decorators/mcp-tool.decorator.js';
import { McpToolFactory } from './mcp-tool.factory.js';
import { McpToolRegistry } from './mcp-tool.registry.js';

/**
 * Finds `@McpTool` (and prompt / resource) methods on every provider and controller at bootstrap
 * and registers them. Duplicate names fail startup.
 */
@Injectable()
export class McpExplorer implements OnModuleInit {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly tools: McpToolRegistry,
    private readonly toolFactory: McpToolFactory,
  ) {}

  onModuleInit(): void {
    const wrappers = [...this.discovery.getProviders(), ...this.discovery.getControllers()];
    const seen = new Set<object>();
    for (const wrapper of wrappers) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isAlias || seen.has(instance)) continue;
      seen.add(instance);
      const prototype = Object.getPrototypeOf(instance) as object | null;
      if (!prototype) continue;
      for (const methodName of this.scanner.getAllMethodNames(prototype)) {
        const method = (prototype as Record<string, unknown>)[methodName];
        if (typeof method !== 'function') continue;
        const tool: McpToolOptions | undefined = Reflect.getMetadata(MCP_TOOL_METADATA, method);
        if (tool) this.tools.add(this.toolFactory.create(instance, methodName, tool));
      }
    }
  }
}
