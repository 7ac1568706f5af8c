import { SetMetadata } from '@nestjs/common';
import type { McpCompleter } from './mcp-completer.js';
import { MCP_PROMPT_METADATA } from './mcp-metadata.constants.js';

/** @publicApi */
export interface McpPromptOptions {
  /** Prompt name; defaults to the method name. */
  name?: string;
  title?: string;
  description: string;
  /** Completers per argument; arguments validated with `@IsIn` / `@IsEnum` complete on their own. */
  completers?: Readonly<Record<string, McpCompleter>>;
}

/**
 * Exposes a provider method as an MCP prompt (prompts/list, prompts/get). A class-validator DTO
 * parameter describes and validates the arguments. Return a string (one user message), an array
 * of messages, or a full GetPromptResult. The handler may elicit like a tool.
 *
 * @publicApi
 */
export const McpPrompt = (options: McpPromptOptions): MethodDecorator => SetMetadata(MCP_PROMPT_METADATA, options);
