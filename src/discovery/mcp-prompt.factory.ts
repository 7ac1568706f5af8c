import { Injectable } from '@nestjs/common';
import type { McpPromptOptions } from '../decorators/mcp-prompt.decorator.js';
import { checkIcons } from '../protocol/icons.js';
import { ownValue } from '../protocol/own-property.js';
import type { PromptDefinition } from '../protocol/wire-types.js';
import { dtoAllowedValues, dtoToPromptArguments } from '../schema/dto-prompt-arguments.js';
import { compileDtoValidator } from '../schema/dto-validator.js';
import { inputDtoOf } from './dto-type.js';
import { type ContextualProvider, McpHandlerFactory } from './mcp-handler.factory.js';
import type { RegisteredPrompt } from './registered-prompt.js';

/** Builds a prompt's definition (arguments from its DTO, once) and wrapped handler. */
@Injectable()
export class McpPromptFactory {
  constructor(private readonly handlers: McpHandlerFactory) {}

  create(
    instance: object,
    methodName: string,
    options: McpPromptOptions,
    contextual?: ContextualProvider,
  ): RegisteredPrompt {
    const source = `${instance.constructor.name}.${methodName}`;
    const name = options.name ?? methodName;
    if (typeof options.description !== 'string' || options.description === '') {
      throw new Error(`MCP prompt "${name}" (${source}) needs a description: @McpPrompt({ description: '...' }).`);
    }
    const icons = checkIcons(options.icons, `MCP prompt "${name}" (${source})`);
    const dto = inputDtoOf(Object.getPrototypeOf(instance) as object, methodName);
    const args = dto ? dtoToPromptArguments(dto) : [...(options.arguments ?? [])];
    const definition: PromptDefinition = {
      name,
      ...(options.title !== undefined && { title: options.title }),
      description: options.description,
      ...(icons && { icons }),
      ...(args.length > 0 && { arguments: args }),
    };
    const completers = options.completers ?? {};
    return {
      name,
      source,
      definition: Object.freeze(definition),
      handler: this.handlers.create(instance, methodName, contextual),
      validate: dto ? compileDtoValidator(dto) : undefined,
      completions: (argument) => {
        // The argument name is the client's: an inherited member (`constructor`…) is no completer.
        const completer = ownValue(completers, argument);
        if (completer) return completer;
        const allowed = dto ? dtoAllowedValues(dto, argument) : undefined;
        return allowed ? () => allowed : undefined;
      },
    };
  }
}
