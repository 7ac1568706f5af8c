import type { ToolDefinition } from '../protocol/wire-types.js';
import type { McpHandler } from './mcp-handler.js';
import type { Registered } from './mcp-registry.js';

/** A tool argument mirrored in an `Mcp-Param-{header}` HTTP header (`x-mcp-header`). */
export interface HeaderParam {
  readonly property: string;
  readonly header: string;
}

/** A tool as the dispatcher serves it: its advertised definition and its wrapped handler. */
export interface RegisteredTool extends Registered {
  readonly definition: ToolDefinition;
  readonly handler: McpHandler;
  /** The class-validator DTO arguments are validated against, when the tool has one. */
  readonly inputDto?: Function;
  readonly headerParams: readonly HeaderParam[];
}
