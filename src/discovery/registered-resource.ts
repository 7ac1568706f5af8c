import type { McpCompleter } from '../decorators/mcp-completer.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../protocol/wire-types.js';
import type { McpHandler } from './mcp-handler.js';
import type { Registered } from './mcp-registry.js';
import type { UriTemplate } from './uri-template.js';

/** A fixed resource, registered under its URI. */
export interface RegisteredResource extends Registered {
  readonly definition: ResourceDefinition;
  readonly handler: McpHandler;
}

/** A resource template, registered under its URI template. */
export interface RegisteredResourceTemplate extends Registered {
  readonly definition: ResourceTemplateDefinition;
  readonly template: UriTemplate;
  readonly handler: McpHandler;
  readonly completers: Readonly<Record<string, McpCompleter>>;
}
