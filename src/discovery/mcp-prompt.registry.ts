import { Injectable } from '@nestjs/common';
import { McpRegistry } from './mcp-registry.js';
import type { RegisteredPrompt } from './registered-prompt.js';

/**
 * Every prompt the server offers; `@McpPrompt` methods at bootstrap, and runtime changes.
 *
 * @publicApi
 */
@Injectable()
export class McpPromptRegistry extends McpRegistry<RegisteredPrompt> {
  constructor() {
    super('prompt');
  }
}
