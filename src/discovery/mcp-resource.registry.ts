import { Injectable } from '@nestjs/common';
import { McpRegistry } from './mcp-registry.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.js';

/**
 * Every fixed resource (keyed by URI) and resource template (keyed by URI template) the server
 * offers, to read; add and remove them at runtime with `McpRegistrar`.
 */
@Injectable()
export class McpResourceRegistry {
  readonly resources = new McpRegistry<RegisteredResource>('resource');
  readonly templates = new McpRegistry<RegisteredResourceTemplate>('resource template');

  get size(): number {
    return this.resources.size + this.templates.size;
  }

  /** The handler for `uri`: an exact resource first, then the first template that matches. */
  resolve(
    uri: string,
  ): { entry: RegisteredResource | RegisteredResourceTemplate; variables: Record<string, string> } | undefined {
    const resource = this.resources.get(uri);
    if (resource) return { entry: resource, variables: {} };
    for (const template of this.templates.values()) {
      const variables = template.template.match(uri);
      if (variables) return { entry: template, variables };
    }
    return undefined;
  }

  onChange(listener: () => void): () => void {
    const offResources = this.resources.onChange(listener);
    const offTemplates = this.templates.onChange(listener);
    return () => {
      offResources();
      offTemplates();
    };
  }
}
