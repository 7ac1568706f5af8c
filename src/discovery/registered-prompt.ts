import type { McpCompleter } from '../decorators/mcp-completer.js';
import type { PromptDefinition } from '../protocol/wire-types.js';
import type { DtoValidatorFn } from '../schema/dto-validator.js';
import type { McpHandler } from './mcp-handler.js';
import type { Registered } from './mcp-registry.js';

/** A prompt as prompts/get serves it. */
export interface RegisteredPrompt extends Registered {
  readonly definition: PromptDefinition;
  readonly handler: McpHandler;
  readonly validate?: DtoValidatorFn;
  /** Candidate values per argument for completion/complete. */
  completions(argument: string): McpCompleter | undefined;
}
