import { Injectable } from '@nestjs/common';
import { McpRegistry } from './mcp-registry.js';
import type { RegisteredTool } from './registered-tool.js';

/**
 * Every tool the server offers, to read. Filled at bootstrap from `@McpTool` methods; add and remove
 * tools at runtime with `McpRegistrar` (clients listening for `toolsListChanged` are told).
 */
@Injectable()
export class McpToolRegistry extends McpRegistry<RegisteredTool> {
  constructor() {
    super('tool');
  }
}
