import { Injectable } from '@nestjs/common';
import type { McpToolOptions } from '../decorators/mcp-tool.decorator.js';
import type { JsonSchema, ToolDefinition } from '../protocol/wire-types.js';
import { dtoToJsonSchema, mcpHeaderParams } from '../schema/dto-json-schema.js';
import { compileDtoValidator } from '../schema/dto-validator.js';
import { inputDtoOf, outputDtoOf } from './dto-type.js';
import { type ContextualProvider, McpHandlerFactory } from './mcp-handler.factory.js';
import type { McpHeaderParam } from '../schema/dto-json-schema.js';
import type { RegisteredTool } from './registered-tool.js';

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
    const inputDto = options.inputSchema ? undefined : inputDtoOf(prototype, methodName);
    const inputSchema = options.inputSchema ?? (inputDto ? dtoToJsonSchema(inputDto) : EMPTY_INPUT_SCHEMA);
    const outputDto = options.outputSchema ? undefined : outputDtoOf(prototype, methodName);
    const outputSchema = options.outputSchema ?? (outputDto ? dtoToJsonSchema(outputDto) : undefined);
    const definition: ToolDefinition = {
      name,
      ...(options.title !== undefined && { title: options.title }),
      description: options.description,
      inputSchema,
      ...(outputSchema && { outputSchema }),
      ...(options.annotations && { annotations: options.annotations }),
      ...(options._meta && { _meta: options._meta }),
    };
    return {
      name,
      source,
      definition: Object.freeze(definition),
      handler: this.handlers.create(instance, methodName, contextual),
      validate: inputDto ? compileDtoValidator(inputDto) : undefined,
      headerParams: inputDto ? mcpHeaderParams(inputDto) : headerParamsOfSchema(inputSchema),
      exactlyOnce: options.exactlyOnce,
      timeoutMs: options.timeoutMs,
      taskSupport: options.taskSupport,
      taskCreation: options.taskCreation,
    };
  }
}

/** `x-mcp-header` annotations of a hand-written schema's top-level properties. */
function headerParamsOfSchema(schema: JsonSchema): McpHeaderParam[] {
  const properties = (schema['properties'] ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties)
    .filter(([, p]) => typeof p?.['x-mcp-header'] === 'string')
    .map(([property, p]) => ({ property, header: p['x-mcp-header'] as string }));
}
