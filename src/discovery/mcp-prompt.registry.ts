import { Injectable } from '@nestjs/common';
import { McpRegistry } from './mcp-registry.js';
import type { RegisteredPrompt } from './registered-prompt.js';

/**
 * Every prompt the server offers, to read; `@McpPrompt` methods at bootstrap, and the changes made
 * at runtime with `McpRegistrar`.
 */
@Injectable()
export class McpPromptRegistry extends McpRegistry<RegisteredPrompt> {
  constructor() {
    super('prompt');
  }
}
