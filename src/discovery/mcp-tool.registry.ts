import { Injectable } from '@nestjs/common';
import { McpRegistry } from './mcp-registry.js';
import type { RegisteredTool } from './registered-tool.js';

/**
 * Every tool the server offers. Filled at bootstrap from `@McpTool` methods; the application may
 * add and remove tools at runtime (clients listening for `toolsListChanged` are told).
 *
 * @publicApi
 */
@Injectable()
export class McpToolRegistry extends McpRegistry<RegisteredTool> {
  constructor() {
    super('tool');
  }
}
