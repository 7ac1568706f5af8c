import type { ToolDefinition } from '../protocol/wire-types.js';
import type { McpHeaderParam } from '../schema/dto-json-schema.js';
import type { DtoValidatorFn } from '../schema/dto-validator.js';
import type { StandardSchemaValidatorFn } from '../schema/standard-schema-validator.js';
import type { ToolOutputCheckFn } from '../schema/tool-output-check.js';
import type { McpHandler } from './mcp-handler.js';
import type { Registered } from './mcp-registry.js';
import type { McpTaskCreation, McpTaskSupport } from '../protocol/task-support.js';
import type { McpToolUiOptions } from '../decorators/mcp-tool.decorator.js';

/** A tool as the dispatcher serves it: its advertised definition and its wrapped handler. */
export interface RegisteredTool extends Registered {
  readonly definition: ToolDefinition;
  readonly handler: McpHandler;
  /**
   * Validates and transforms the arguments against the tool's DTO, or its Standard Schema `input`,
   * synchronously (a schema that answers asynchronously makes it throw -32602: see `validateAsync`).
   */
  readonly validate?: DtoValidatorFn;
  /** For a tool with a Standard Schema `input`: validates the arguments, waiting for the library. Preferred over `validate`. */
  readonly validateAsync?: StandardSchemaValidatorFn;
  /**
   * For a tool with an output schema (`output`, `outputSchema` or a DTO return type): checks a
   * result's `structuredContent`, compiled at startup. Undefined when there is none: nothing runs.
   */
  readonly checkOutput?: ToolOutputCheckFn;
  /** Arguments mirrored in `Mcp-Param-{header}` HTTP headers (`x-mcp-header`). */
  readonly headerParams: readonly McpHeaderParam[];
  /** `@McpTool({ exactlyOnce })`; undefined means the module's default. */
  readonly exactlyOnce?: boolean;
  /** `@McpTool({ timeoutMs })`; undefined means the module's default. */
  readonly timeoutMs?: number;
  /** `@McpTool({ taskSupport })`; undefined means the tool never runs as a task. */
  readonly taskSupport?: McpTaskSupport;
  /** `@McpTool({ taskCreation })`; undefined means `'immediate'`. */
  readonly taskCreation?: McpTaskCreation;
  /** `@McpTool({ ui })`: the MCP App the tool is linked to. */
  readonly ui?: McpToolUiOptions;
  /**
   * For a tool linked to an app: what clients that do not render apps are shown, the definition
   * without its UI metadata, or null for an app-only tool (hidden from them).
   */
  readonly withoutUi?: ToolDefinition | null;
}
