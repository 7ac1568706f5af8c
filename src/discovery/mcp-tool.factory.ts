import { Injectable } from '@nestjs/common';
import type { McpToolOptions, McpToolUiOptions } from '../decorators/mcp-tool.decorator.js';
import type { JsonSchema, ToolDefinition } from '../protocol/wire-types.js';
import { dtoToJsonSchema, mcpHeaderParams } from '../schema/dto-json-schema.js';
import { compileDtoValidator } from '../schema/dto-validator.js';
import { inputDtoOf, outputDtoOf } from './dto-type.js';
import { type ContextualProvider, McpHandlerFactory } from './mcp-handler.factory.js';
import type { McpHeaderParam } from '../schema/dto-json-schema.js';
import type { RegisteredTool } from './registered-tool.js';
import { FLAT_RESOURCE_URI_KEY } from './mcp-apps-support.js';
import { isStandardSchema } from '../schema/standard-schema.js';
import { standardJsonSchema } from '../schema/standard-json-schema.js';
import { compileStandardSchemaValidators } from '../schema/standard-schema-validator.js';
import { compileToolOutputCheck, type ToolOutputCheckFn } from '../schema/tool-output-check.js';
import { checkIcons } from '../protocol/icons.js';

const TOOL_NAME = /^[A-Za-z0-9_./-]{1,64}$/;
const EMPTY_INPUT_SCHEMA: JsonSchema = Object.freeze({ type: 'object', properties: {} });

/** Builds a tool's advertised definition (schemas computed once, here) and its wrapped handler. */
@Injectable()
export class McpToolFactory {
  constructor(private readonly handlers: McpHandlerFactory) {}

  create(
    instance: object,
    methodName: string,
    options: McpToolOptions,
    contextual?: ContextualProvider,
  ): RegisteredTool {
    const prototype = Object.getPrototypeOf(instance) as object;
    const source = `${instance.constructor.name}.${methodName}`;
    const name = options.name ?? methodName;
    if (!TOOL_NAME.test(name)) {
      throw new Error(
        `MCP tool name "${name}" (${source}) must match ${TOOL_NAME}: letters, digits, _ . / - and at most 64 characters.`,
      );
    }
    if (typeof options.description !== 'string' || options.description === '') {
      throw new Error(`MCP tool "${name}" (${source}) needs a description: @McpTool({ description: '...' }).`);
    }
    if (options.timeoutMs !== undefined && !(Number.isInteger(options.timeoutMs) && options.timeoutMs > 0)) {
      throw new Error(`MCP tool "${name}" (${source}): timeoutMs must be a positive whole number of milliseconds.`);
    }
    if (options.taskSupport !== undefined && options.taskSupport !== 'optional' && options.taskSupport !== 'required') {
      throw new Error(`MCP tool "${name}" (${source}): taskSupport must be 'optional' or 'required'.`);
    }
    if (options.taskCreation !== undefined) {
      if (options.taskSupport === undefined) {
        throw new Error(`MCP tool "${name}" (${source}): taskCreation needs taskSupport ('optional' or 'required').`);
      }
      if (options.taskCreation !== 'immediate' && options.taskCreation !== 'handler') {
        throw new Error(`MCP tool "${name}" (${source}): taskCreation must be 'immediate' or 'handler'.`);
      }
    }
    const what = `MCP tool "${name}" (${source})`;
    if (options.ui !== undefined) checkUi(options.ui, what);
    const { input, output } = options;
    for (const [side, schema] of [
      ['input', input],
      ['output', output],
    ] as const) {
      if (schema !== undefined && !isStandardSchema(schema)) {
        throw new Error(`${what}: ${side} must be a Standard Schema v1 value (zod 4, valibot 1, arktype 2, ...).`);
      }
    }
    const inputDto = options.inputSchema || input ? undefined : inputDtoOf(prototype, methodName);
    const inputSchema =
      options.inputSchema ??
      (input ? standardJsonSchema(input, 'input', what) : inputDto ? dtoToJsonSchema(inputDto) : EMPTY_INPUT_SCHEMA);
    const outputDto = options.outputSchema || output ? undefined : outputDtoOf(prototype, methodName);
    const outputSchema =
      options.outputSchema ??
      (output ? standardJsonSchema(output, 'output', what) : outputDto ? dtoToJsonSchema(outputDto) : undefined);
    const checks = input ? compileStandardSchemaValidators(input, name) : undefined;
    const checkOutput = outputCheck(output, outputSchema, what);
    const icons = checkIcons(options.icons, what);
    const definition: ToolDefinition = {
      name,
      ...(options.title !== undefined && { title: options.title }),
      description: options.description,
      ...(icons && { icons }),
      inputSchema,
      ...(outputSchema && { outputSchema }),
      ...(options.annotations && { annotations: options.annotations }),
    };
    const meta = options.ui ? { ...options._meta, ...uiMeta(options.ui) } : options._meta;
    if (meta) definition._meta = meta;
    return {
      name,
      source,
      definition: Object.freeze(definition),
      handler: this.handlers.create(instance, methodName, contextual),
      validate: inputDto ? compileDtoValidator(inputDto) : checks?.validate,
      validateAsync: checks?.validateAsync,
      ...(checkOutput && { checkOutput }),
      headerParams: inputDto ? mcpHeaderParams(inputDto) : headerParamsOfSchema(inputSchema),
      exactlyOnce: options.exactlyOnce,
      timeoutMs: options.timeoutMs,
      taskSupport: options.taskSupport,
      taskCreation: options.taskCreation,
      ...(options.ui && { ui: options.ui, withoutUi: withoutUi(definition, options) }),
    };
  }
}

/** The check of the tool's results, compiled now; a schema that cannot be compiled stops startup. */
function outputCheck(
  output: McpToolOptions['output'],
  outputSchema: JsonSchema | undefined,
  what: string,
): ToolOutputCheckFn | undefined {
  try {
    return compileToolOutputCheck(output, outputSchema);
  } catch (error) {
    throw new Error(`${what}: its outputSchema cannot be checked: ${(error as Error).message}.`, { cause: error });
  }
}

function checkUi(ui: McpToolUiOptions, what: string): void {
  if (typeof ui.resourceUri !== 'string' || !ui.resourceUri.startsWith('ui://')) {
    throw new Error(`${what}: ui.resourceUri must be the ui:// URI of an app resource, got ${String(ui.resourceUri)}.`);
  }
  const visibility = ui.visibility;
  if (
    visibility !== undefined &&
    (!Array.isArray(visibility) || visibility.length === 0 || visibility.some((v) => v !== 'model' && v !== 'app'))
  ) {
    throw new Error(`${what}: ui.visibility must list 'model', 'app' or both.`);
  }
}

/** The nested `_meta.ui` hosts read, and the deprecated flat key for hosts that predate it. */
function uiMeta(ui: McpToolUiOptions): Record<string, unknown> {
  return {
    ui: { resourceUri: ui.resourceUri, ...(ui.visibility && { visibility: [...ui.visibility] }) },
    [FLAT_RESOURCE_URI_KEY]: ui.resourceUri,
  };
}

/**
 * What a client that does not render apps is shown: the plain tool, or nothing for an app-only one.
 * UI keys the application also wrote in its own `_meta` (say, left from a hand-written link) go too.
 */
function withoutUi(definition: ToolDefinition, options: McpToolOptions): ToolDefinition | null {
  if (options.ui?.visibility && !options.ui.visibility.includes('model')) return null;
  const { _meta: _withUi, ...plain } = definition;
  const { ui: _ui, [FLAT_RESOURCE_URI_KEY]: _flat, ...own } = options._meta ?? {};
  return Object.freeze(Object.keys(own).length > 0 ? { ...plain, _meta: own } : plain);
}

/** `x-mcp-header` annotations of a hand-written schema's top-level properties. */
function headerParamsOfSchema(schema: JsonSchema): McpHeaderParam[] {
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties)
    .filter(([, p]) => typeof p?.['x-mcp-header'] === 'string')
    .map(([property, p]) => ({ property, header: p['x-mcp-header'] as string }));
}
