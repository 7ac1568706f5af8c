import { SetMetadata } from '@nestjs/common';
import type { McpIcon } from '../protocol/icons.js';
import type { JsonSchema, ToolAnnotations } from '../protocol/wire-types.js';
import { MCP_TOOL_METADATA } from './mcp-metadata.constants.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';

/**
 * Who may use a tool linked to an MCP App: `'model'` (the agent sees and calls it) and `'app'`
 * (the app calls it through the host).
 *
 * @publicApi
 */
export type McpUiVisibility = 'model' | 'app';

/**
 * Links a tool to an MCP App (the `io.modelcontextprotocol/ui` extension): hosts that render apps
 * show the tool's result in the app resource's UI.
 *
 * @publicApi
 */
export interface McpToolUiOptions {
  /** The `ui://` URI of the app resource (`@McpAppResource` of `@mocapi/nestjs/apps`). */
  resourceUri: string;
  /**
   * Default (omitted): `['model', 'app']`. `['app']` makes a tool only the app calls: hosts keep it
   * from the model, and clients that do not render apps neither see it in tools/list nor may call
   * it (-32602, as for an unknown tool).
   */
  visibility?: readonly McpUiVisibility[];
}

/** @publicApi */
export interface McpToolOptions {
  /** Tool name; defaults to the method name. Must match `^[A-Za-z0-9_./-]{1,64}$`. */
  name?: string;
  title?: string;
  /** What the tool does, for the model. */
  description: string;
  /**
   * Images hosts may show for the tool (SEP-973): each `src` an `https:` URL or a `data:` URI of
   * an image, with optional `mimeType`, `sizes` (`48x48`, `any`) and `theme` (`light`, `dark`).
   * Listed in tools/list in both eras; checked at startup.
   */
  icons?: readonly McpIcon[];
  annotations?: ToolAnnotations;
  /**
   * A hand-written JSON Schema for the arguments, advertised as is instead of one generated from the
   * method's DTO parameter or from `input` (arguments are then not validated by class-validator;
   * with `input`, they are still validated by it).
   */
  inputSchema?: JsonSchema;
  /**
   * The arguments as a Standard Schema v1 value (zod 4, valibot 1, arktype 2, ...), instead of a
   * class-validator DTO parameter: every call's arguments are validated with it (asynchronous
   * schemas too) and the handler receives the value it answers (transforms and defaults applied).
   * Invalid arguments answer the same `isError` result as a DTO's, one `path: message` line per
   * issue. The advertised `inputSchema` is the library's own JSON Schema of it (Standard JSON
   * Schema, `~standard.jsonSchema`, which zod 4 implements) unless `inputSchema` is set, which wins;
   * for a library without it (valibot, arktype), set `inputSchema` beside it, else startup fails
   * naming the tool. It must describe an object.
   */
  input?: StandardSchemaV1;
  /**
   * A hand-written output schema, advertised as is; by default one is derived from `output`, or
   * generated when the method declares a DTO return type. Whichever it is, every result is held to
   * it (unless `output` is set, which checks them instead): a result whose `structuredContent` does
   * not conform, or that has none (and is not `isError`), is answered as an `isError` result naming
   * the failing paths and what each expected (never the values), and logged at ERROR. The check is
   * compiled at startup and knows the keywords of generated and library schemas (`type`,
   * `properties`, `required`, `additionalProperties`, `patternProperties`, `items`, `prefixItems`,
   * `enum`, `const`, the numeric, string, array and object bounds, `pattern`, the common `format`s,
   * `anyOf`/`oneOf`/`allOf`/`not`, `if`/`then`/`else`, `$ref` within the schema); any other keyword,
   * and a `$ref` to another document, is ignored (accepts any value).
   */
  outputSchema?: JsonSchema;
  /**
   * The result's `structuredContent` as a Standard Schema v1 value: the advertised `outputSchema`
   * is the library's JSON Schema of its output (unless `outputSchema` is set, which wins; a library
   * without Standard JSON Schema needs `outputSchema` beside it). Every result's `structuredContent`
   * is validated with it (`~standard.validate`, asynchronous schemas too), whatever `outputSchema`
   * says: a non-conforming or missing one becomes an `isError` result naming the failing paths (the
   * library's messages), logged at ERROR. A conforming result is sent with the value the schema
   * answers as `structuredContent` (defaults filled, unknown keys stripped as the schema says, and
   * the text content made from it when the handler returned the bare object), not the handler's
   * original: that value is what the advertised output schema describes (zod's, for one, lists
   * defaulted keys as required and forbids unknown ones), so the client's own check passes.
   */
  output?: StandardSchemaV1;
  /** Extra `_meta` advertised with the tool in tools/list. */
  _meta?: Record<string, unknown>;
  /**
   * Links the tool to an MCP App: tools/list carries `_meta.ui` (`resourceUri`, `visibility`) to
   * clients that declare the `io.modelcontextprotocol/ui` extension, and the same tool without it to
   * the others (the result's text content is what they show). With `McpAppsModule`, a link to a
   * resource that is not an app resource fails at startup; without it (nothing declares the
   * extension), any link does.
   */
  ui?: McpToolUiOptions;
  /**
   * Exactly-once completion of this tool's elicitation flows: the first completion of a flow is
   * recorded, and a replayed or concurrent final round gets that result without running the
   * handler again (default: `mrtr.exactlyOnce`, itself false). Results with `isError` are not
   * recorded, so a failed round can be retried.
   */
  exactlyOnce?: boolean;
  /**
   * How long one call may run, in ms: past it, the handler's signal (`exchange.signal`,
   * `McpProgressReporter.signal`) is aborted and the call answers an `isError` result. Default:
   * the module's `toolTimeoutMs` (none).
   */
  timeoutMs?: number;
  /**
   * Lets the tool run as a task (the `io.modelcontextprotocol/tasks` extension): `'optional'` runs
   * it as a task for clients that declare the extension on the request and synchronously for the
   * others; `'required'` refuses the others with -32021. Default: never a task. `timeoutMs` does not
   * apply to task runs (the task's `ttlMs` bounds them).
   */
  taskSupport?: 'optional' | 'required';
  /**
   * When the task starts (with `taskSupport`): `'immediate'` (default) before the handler runs;
   * `'handler'` when the handler calls `McpTaskContext.start()`, its earlier questions being
   * answered synchronously.
   */
  taskCreation?: 'immediate' | 'handler';
}

/**
 * Exposes a provider method as an MCP tool. The first parameter's class-validator DTO (if any), or
 * the Standard Schema given as `input`, becomes the `inputSchema`, and arguments are validated
 * against it on every call. The handler
 * receives `(input, exchange)` unless it uses `@McpArgs()` / `@McpCtx()`.
 *
 * @publicApi
 */
export const McpTool = (options: McpToolOptions): MethodDecorator => SetMetadata(MCP_TOOL_METADATA, options);
