import { SetMetadata } from '@nestjs/common';
import type { McpIcon } from '../protocol/icons.js';
import type { McpCompleter } from './mcp-completer.js';
import { MCP_PROMPT_METADATA } from './mcp-metadata.constants.js';

/** @publicApi */
export interface McpPromptOptions {
  /** Prompt name; defaults to the method name. */
  name?: string;
  title?: string;
  description: string;
  /**
   * Images hosts may show for the prompt (SEP-973): each `src` an `https:` URL or a `data:` URI of
   * an image, with optional `mimeType`, `sizes` (`48x48`, `any`) and `theme` (`light`, `dark`).
   * Listed in prompts/list in both eras; checked at startup.
   */
  icons?: readonly McpIcon[];
  /**
   * The arguments advertised in prompts/list, for a prompt without an input DTO (one mounted from
   * another server); a DTO's arguments win.
   */
  arguments?: readonly { name: string; title?: string; description?: string; required?: boolean }[];
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
