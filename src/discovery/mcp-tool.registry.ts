import { Injectable } from '@nestjs/common';
import type { ToolDefinition } from '../protocol/wire-types.js';
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
  private definitionSnapshot: readonly ToolDefinition[] | undefined;

  constructor() {
    super('tool');
  }

  /** The advertised definitions, computed once per change. */
  definitions(): readonly ToolDefinition[] {
    return (this.definitionSnapshot ??= Object.freeze(this.values().map((tool) => tool.definition)));
  }

  protected override changed(): void {
    this.definitionSnapshot = undefined;
    super.changed();
  }
}
