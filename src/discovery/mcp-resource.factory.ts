import { Injectable } from '@nestjs/common';
import type { McpResourceTemplateOptions } from '../decorators/mcp-resource-template.decorator.js';
import type { McpResourceOptions } from '../decorators/mcp-resource.decorator.js';
import { checkIcons } from '../protocol/icons.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../protocol/wire-types.js';
import { type ContextualProvider, McpHandlerFactory } from './mcp-handler.factory.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.js';
import { UriTemplate } from './uri-template.js';

/** Builds fixed resources and resource templates with their wrapped handlers. */
@Injectable()
export class McpResourceFactory {
  constructor(private readonly handlers: McpHandlerFactory) {}

  createResource(
    instance: object,
    methodName: string,
    options: McpResourceOptions,
    contextual?: ContextualProvider,
  ): RegisteredResource {
    const source = `${instance.constructor.name}.${methodName}`;
    if (typeof options.uri !== 'string' || !/^[A-Za-z][A-Za-z0-9+.-]*:/.test(options.uri)) {
      throw new Error(`MCP resource ${source} needs an absolute URI: @McpResource({ uri: 'scheme://...' }).`);
    }
    const icons = checkIcons(options.icons, `MCP resource ${options.uri} (${source})`);
    const definition: ResourceDefinition = {
      uri: options.uri,
      name: options.name ?? methodName,
      ...pick(options, ['title', 'description']),
      ...(icons && { icons }),
      ...pick(options, ['mimeType', 'size', 'annotations', '_meta']),
    };
    return {
      name: options.uri,
      source,
      definition: Object.freeze(definition),
      handler: this.handlers.create(instance, methodName, contextual),
    };
  }

  createTemplate(
    instance: object,
    methodName: string,
    options: McpResourceTemplateOptions,
    contextual?: ContextualProvider,
  ): RegisteredResourceTemplate {
    const source = `${instance.constructor.name}.${methodName}`;
    let template: UriTemplate;
    try {
      template = new UriTemplate(options.uriTemplate);
    } catch (error) {
      throw new Error(`MCP resource template ${source}: ${(error as Error).message}`, { cause: error });
    }
    const icons = checkIcons(options.icons, `MCP resource template ${options.uriTemplate} (${source})`);
    const definition: ResourceTemplateDefinition = {
      uriTemplate: options.uriTemplate,
      name: options.name ?? methodName,
      ...pick(options, ['title', 'description']),
      ...(icons && { icons }),
      ...pick(options, ['mimeType', 'annotations', '_meta']),
    };
    return {
      name: options.uriTemplate,
      source,
      definition: Object.freeze(definition),
      template,
      handler: this.handlers.create(instance, methodName, contextual),
      completers: options.completers ?? {},
    };
  }
}

function pick<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const picked: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) picked[key] = source[key];
  return picked;
}
