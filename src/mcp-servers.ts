import { Inject, Injectable, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { MCP_LIMITS, type ResolvedMcpLimits } from './core/mcp-limits.options.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from './core/mcp-server.options.js';
import { McpPromptRegistry } from './discovery/mcp-prompt.registry.js';
import { McpRegistrar } from './discovery/mcp-registrar.js';
import { McpResourceRegistry } from './discovery/mcp-resource.registry.js';
import { McpServerExtensions } from './discovery/mcp-server-extensions.js';
import { McpToolRegistry } from './discovery/mcp-tool.registry.js';
import { MCP_SERVER_IS_GLOBAL } from './mcp.module-definition.js';
import { McpTaskRunner } from './tasks/mcp-task-runner.js';

/**
 * One MCP server of the application (one `McpModule.forRoot`): its path, its name and its registrar.
 * Found through {@link McpServers}.
 *
 * @publicApi
 */
@Injectable()
export class McpServerRef {
  /** The server's `path`: which server it is among the application's. */
  readonly path: string;
  /** The server's `name` (serverInfo.name). */
  readonly name: string;
  /** Whether this is the application's global server (`isGlobal`, the default). */
  readonly isGlobal: boolean;
  /** Adds and removes this server's tools, prompts and resources at run time. */
  readonly registrar: McpRegistrar;
  /** @internal This server's tools (for the integrations that report on the server). */
  readonly tools: McpToolRegistry;
  /** @internal This server's prompts. */
  readonly prompts: McpPromptRegistry;
  /** @internal This server's resources and resource templates. */
  readonly resources: McpResourceRegistry;
  /** @internal The extensions this server declares (for the integrations that add one). */
  readonly extensions: McpServerExtensions;
  /** @internal The server's resolved options (for integrations that answer on its behalf). */
  readonly options: ResolvedMcpServerOptions;
  /** @internal The server's bounds (for integrations that answer on its behalf). */
  readonly limits: ResolvedMcpLimits;
  /** @internal What runs this server's tasks (a queue's worker hands each job to its own server's). */
  readonly taskRunner: McpTaskRunner;

  /** @internal */
  constructor(
    @Inject(MCP_SERVER_OPTIONS) options: ResolvedMcpServerOptions,
    @Optional() @Inject(MCP_SERVER_IS_GLOBAL) isGlobal: boolean | undefined,
    registrar: McpRegistrar,
    tools: McpToolRegistry,
    prompts: McpPromptRegistry,
    resources: McpResourceRegistry,
    extensions: McpServerExtensions,
    taskRunner: McpTaskRunner,
    @Inject(MCP_LIMITS) limits: ResolvedMcpLimits,
  ) {
    this.options = options;
    this.limits = limits;
    this.taskRunner = taskRunner;
    this.path = options.path;
    this.name = options.name;
    this.isGlobal = isGlobal === true;
    this.registrar = registrar;
    this.tools = tools;
    this.prompts = prompts;
    this.resources = resources;
    this.extensions = extensions;
  }
}

/**
 * The MCP servers of the application, by `path`: how an integration module attaches to the server
 * it is configured for, and how application code reaches the registrar or registries of a server
 * that is not the global one. Injectable wherever the global server is (or any module that imports
 * a server), or made from a `ModuleRef` (`new McpServers(moduleRef)`). Look servers up once the
 * modules are initialised (`onModuleInit` or later).
 *
 * ```ts
 * constructor(private readonly servers: McpServers) {}
 * onModuleInit() {
 *   this.servers.get('/mcp/staff').registrar.addTool(this, 'refund', { description: 'Refunds a bill' });
 * }
 * ```
 *
 * @publicApi
 */
@Injectable()
export class McpServers {
  constructor(private readonly moduleRef: ModuleRef) {}

  /** Every server of the application, in the order their modules were created. */
  all(): McpServerRef[] {
    return this.moduleRef.get(McpServerRef, { strict: false, each: true });
  }

  /**
   * The server at `path`; without one, the global server (the one `McpModule.forRoot` did not mark
   * `isGlobal: false`). Throws, naming the servers there are, when there is no such server.
   */
  get(path?: string): McpServerRef {
    const all = this.all();
    const served = () => all.map((server) => server.path).join(', ') || 'none';
    if (path !== undefined) {
      const found = all.find((server) => server.path === path);
      if (!found) throw new Error(`No MCP server at path ${path} (this application serves ${served()})`);
      return found;
    }
    const global = all.find((server) => server.isGlobal);
    if (!global) {
      throw new Error(
        `No MCP server of this application is global (it serves ${served()}): name the server by its path`,
      );
    }
    return global;
  }
}

/**
 * Checks the `server` option of an integration module (`module`, e.g. `McpSkillsModule`): the path
 * of the server it attaches to, or undefined for the global server. Throws when it is not a path.
 */
export function attachedServer(server: unknown, module: string): string | undefined {
  if (server === undefined) return undefined;
  if (typeof server !== 'string' || !server.startsWith('/')) {
    throw new Error(`${module}: server must be the path of one of the application's MCP servers (e.g. '/mcp/staff')`);
  }
  return server.length > 1 ? server.replace(/\/+$/, '') : server;
}
