import { Injectable } from '@nestjs/common';
import type { PromptDefinition } from '../protocol/wire-types.js';
import { McpRegistry } from './mcp-registry.js';
import type { RegisteredPrompt } from './registered-prompt.js';

/**
 * Every prompt the server offers; `@McpPrompt` methods at bootstrap, and runtime changes.
 *
 * @publicApi
 */
@Injectable()
export class McpPromptRegistry extends McpRegistry<RegisteredPrompt> {
  private definitionSnapshot: readonly PromptDefinition[] | undefined;

  constructor() {
    super('prompt');
  }

  definitions(): readonly PromptDefinition[] {
    return (this.definitionSnapshot ??= Object.freeze(this.values().map((prompt) => prompt.definition)));
  }

  protected override changed(): void {
    this.definitionSnapshot = undefined;
    super.changed();
  }
}
