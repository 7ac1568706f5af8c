import { Logger } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/client';
import type { McpRegistrar } from '../discovery/mcp-registrar.js';
import { logText } from '../protocol/log-text.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import type { JsonSchema, PromptArgument } from '../protocol/wire-types.js';
import { McpUpstreamError } from './mcp-upstream.error.js';
import { traceMeta } from './trace-context.js';
import type { UpstreamRelay } from './upstream-relay.js';

type Listed = Record<string, unknown>;

/** A mounted tool: its calls go upstream under the upstream's own name. */
class UpstreamTool {
  constructor(
    private readonly relay: UpstreamRelay,
    private readonly upstreamName: string,
  ) {}

  async call(args: Record<string, unknown> | undefined, exchange: McpExchange): Promise<unknown> {
    try {
      return await this.relay.relay('tools/call', {
        name: this.upstreamName,
        arguments: args ?? {},
        ...traceMeta(exchange),
      });
    } catch (error) {
      // The upstream failed where a model can read it: a tool error. Nothing-ran errors stay errors.
      if (error instanceof McpUpstreamError) return { content: [{ type: 'text', text: error.message }], isError: true };
      throw error;
    }
  }
}

/** A mounted prompt. */
class UpstreamPrompt {
  constructor(
    private readonly relay: UpstreamRelay,
    private readonly upstreamName: string,
  ) {}

  get(args: Record<string, unknown> | undefined, exchange: McpExchange): Promise<unknown> {
    return this.relay.relay('prompts/get', { name: this.upstreamName, arguments: args ?? {}, ...traceMeta(exchange) });
  }
}

/** A mounted resource or resource template: read at the same URI upstream. */
class UpstreamResource {
  constructor(private readonly relay: UpstreamRelay) {}

  async read(variables: { uri: string }, exchange: McpExchange): Promise<unknown> {
    return this.relay.relay('resources/read', { uri: variables.uri, ...traceMeta(exchange) });
  }
}

/**
 * What one upstream has mounted in the server: lists the upstream's tools, prompts, resources and
 * templates, and adds (and on a later {@link UpstreamMount.refresh}, updates) them through the
 * server's registrar, named `<prefix>_<name>`; resources keep their URIs.
 */
export class UpstreamMount {
  private readonly logger = new Logger('McpGateway');
  private tools = new Set<string>();
  private prompts = new Set<string>();
  private resources = new Set<string>();
  private templates = new Set<string>();
  /** When the upstream was last listed (ms epoch); undefined until the first success. */
  mountedAt: number | undefined;
  /** What the last listing found, to skip a listing that changed nothing. */
  private signature: string | undefined;

  constructor(
    readonly relay: UpstreamRelay,
    private readonly registrar: McpRegistrar,
  ) {}

  private queue: Promise<void> = Promise.resolve();

  /**
   * Lists the upstream again and brings the server's entries in line with it; refreshes run one at
   * a time, in order (a burst of list_changed notifications does not interleave them).
   */
  refresh(client: Client): Promise<void> {
    const next = this.queue.then(() => this.reload(client));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async reload(client: Client): Promise<void> {
    const { prefix } = this.relay.upstream;
    const capabilities = client.getServerCapabilities() ?? {};
    const tools = capabilities.tools ? await listAll(client, 'tools/list', 'tools') : [];
    const prompts = capabilities.prompts ? await listAll(client, 'prompts/list', 'prompts') : [];
    const resources = capabilities.resources ? await listAll(client, 'resources/list', 'resources') : [];
    const templates = capabilities.resources
      ? await listAll(client, 'resources/templates/list', 'resourceTemplates')
      : [];
    // Unchanged since the last listing: nothing to do (and no list_changed for our clients).
    const signature = JSON.stringify([tools, prompts, resources, templates]);
    if (signature === this.signature && this.mountedAt !== undefined) return;
    this.signature = signature;
    this.clear();
    for (const tool of tools.filter((item) => this.wanted(item))) {
      const name = `${prefix}_${String(tool['name'])}`;
      this.mount(this.tools, 'tool', name, () =>
        this.registrar.addTool(new UpstreamTool(this.relay, String(tool['name'])), 'call', {
          name,
          ...(typeof tool['title'] === 'string' && { title: tool['title'] }),
          description: describe(tool),
          inputSchema: tool['inputSchema'] as JsonSchema,
          ...(tool['outputSchema'] !== undefined && { outputSchema: tool['outputSchema'] as JsonSchema }),
          ...(tool['annotations'] !== undefined && { annotations: tool['annotations'] as never }),
          ...(Array.isArray(tool['icons']) && { icons: tool['icons'] as never }),
        }),
      );
    }
    for (const prompt of prompts.filter((item) => this.wanted(item))) {
      const name = `${prefix}_${String(prompt['name'])}`;
      this.mount(this.prompts, 'prompt', name, () =>
        this.registrar.addPrompt(new UpstreamPrompt(this.relay, String(prompt['name'])), 'get', {
          name,
          ...(typeof prompt['title'] === 'string' && { title: prompt['title'] }),
          description: describe(prompt),
          ...(Array.isArray(prompt['arguments']) && { arguments: prompt['arguments'] as PromptArgument[] }),
          ...(Array.isArray(prompt['icons']) && { icons: prompt['icons'] as never }),
        }),
      );
    }
    for (const resource of resources) {
      const uri = String(resource['uri']);
      this.mount(this.resources, 'resource', uri, () =>
        this.registrar.addResource(new UpstreamResource(this.relay), 'read', {
          uri,
          name: `${prefix}_${String(resource['name'])}`,
          ...pick(resource, ['title', 'description', 'mimeType', 'size', 'annotations', 'icons']),
        }),
      );
    }
    for (const template of templates) {
      const uriTemplate = String(template['uriTemplate']);
      this.mount(this.templates, 'resource template', uriTemplate, () =>
        this.registrar.addResourceTemplate(new UpstreamResource(this.relay), 'read', {
          uriTemplate,
          name: `${prefix}_${String(template['name'])}`,
          ...pick(template, ['title', 'description', 'mimeType', 'annotations', 'icons']),
        }),
      );
    }
    this.mountedAt = Date.now();
    this.logger.log(
      `Mounted upstream "${this.relay.upstream.name}": ${this.tools.size} tools, ${this.prompts.size} prompts, ` +
        `${this.resources.size} resources, ${this.templates.size} resource templates`,
    );
  }

  /**
   * Adds one item; one the server refuses (a name it cannot serve, one already taken by another
   * item) is left out with a warning, and the others are still mounted.
   */
  private mount(added: Set<string>, kind: string, id: string, add: () => void): void {
    try {
      add();
      added.add(id);
    } catch (error) {
      this.logger.warn(
        `Upstream "${this.relay.upstream.name}": ${kind} ${logText(id)} is not mounted: ${logText((error as Error).message)}`,
      );
    }
  }

  /** Removes everything this upstream mounted. */
  clear(): void {
    for (const name of this.tools) this.registrar.removeTool(name);
    for (const name of this.prompts) this.registrar.removePrompt(name);
    for (const uri of this.resources) this.registrar.removeResource(uri);
    for (const uriTemplate of this.templates) this.registrar.removeResourceTemplate(uriTemplate);
    this.tools = new Set();
    this.prompts = new Set();
    this.resources = new Set();
    this.templates = new Set();
  }

  private wanted(item: Listed): boolean {
    const { include, exclude } = this.relay.upstream;
    const name = String(item['name']);
    return (include === undefined || include.has(name)) && !exclude.has(name);
  }
}

function describe(item: Listed): string {
  const text = item['description'] ?? item['title'] ?? item['name'];
  return typeof text === 'string' && text !== '' ? text : 'An upstream item';
}

function pick(item: Listed, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => item[key] !== undefined).map((key) => [key, item[key]]));
}

/** Every page of a list. */
async function listAll(client: Client, method: string, key: string): Promise<Listed[]> {
  const items: Listed[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 100; page++) {
    const result = (await client.request({ method, params: cursor ? { cursor } : {} } as never)) as Listed;
    items.push(...((result[key] as Listed[] | undefined) ?? []));
    cursor = typeof result['nextCursor'] === 'string' ? result['nextCursor'] : undefined;
    if (!cursor) break;
  }
  return items;
}
