import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { bindExpress } from './express-binding.js';
import { bindFastify } from './fastify-binding.js';
import { McpHttpHandler } from './mcp-http-handler.js';
import { MCP_HTTP_OPTIONS, type ResolvedMcpHttpOptions } from './mcp-http.options.js';
import { MCP_SERVER_CARD, SERVER_CARD_EXTENSION, ServerCardEndpoint } from './server-card-endpoint.js';
import type { McpServerCard } from './server-card.options.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../../core/mcp-server.options.js';
import { McpServerExtensions } from '../../discovery/mcp-server-extensions.js';

/** A route a server mounts: its MCP endpoint or its card. */
interface Route {
  readonly card: boolean;
  /** The server's path. */
  readonly server: string;
}

/** The routes mounted on each HTTP server instance (several servers may share one application), by path. */
const mounted = new WeakMap<object, Map<string, Route>>();

/**
 * Mounts the Streamable HTTP endpoint, and the server's card beside it, on whichever HTTP adapter
 * the application runs; a second server on the same path of the same application, or a server on
 * another's card path, fails startup. A server that serves its card declares the extension.
 */
@Injectable()
export class McpHttpTransport implements OnModuleInit {
  private readonly logger = new Logger('McpHttp');

  constructor(
    @Inject(MCP_HTTP_OPTIONS) private readonly options: ResolvedMcpHttpOptions,
    @Inject(MCP_SERVER_OPTIONS) private readonly server: ResolvedMcpServerOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly handler: McpHttpHandler,
    @Inject(MCP_SERVER_CARD) private readonly card: McpServerCard | null,
    private readonly extensions: McpServerExtensions,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.options.http || !adapter) return;
    const type = adapter.getType();
    const instance = adapter.getInstance();
    const { path } = this.server;
    const card = this.card ? new ServerCardEndpoint(this.card, path) : undefined;
    const routes = mounted.get(instance) ?? new Map<string, Route>();
    claim(routes, path, { card: false, server: path });
    if (card) claim(routes, card.path, { card: true, server: path });
    mounted.set(instance, routes);
    if (type === 'express') bindExpress(instance, path, this.handler, card);
    else if (type === 'fastify') bindFastify(instance, path, this.handler, card);
    else {
      this.logger.warn(`No MCP endpoint mounted: HTTP adapter "${type}" is not supported (use Express or Fastify)`);
      return;
    }
    const eras = [this.server.eras.modern && '2026-07-28', this.server.eras.legacy && '2025-era sessions']
      .filter(Boolean)
      .join(' + ');
    this.logger.log(`MCP endpoint: ${path} (${type}; ${eras})`);
    if (card) {
      this.extensions.declare(SERVER_CARD_EXTENSION);
      this.logger.log(`MCP Server Card: ${card.path}`);
    }
  }
}

/** Takes `path` for `route`, or fails startup naming what already holds it. */
function claim(routes: Map<string, Route>, path: string, route: Route): void {
  const holder = routes.get(path);
  if (holder === undefined) {
    routes.set(path, route);
    return;
  }
  if (!holder.card && !route.card) {
    throw new Error(
      `Two MCP servers are mounted on ${path}: give each McpModule.forRoot of this application its own \`path\``,
    );
  }
  const what = (r: Route) => `${r.card ? 'the Server Card' : 'the MCP endpoint'} of the server at ${r.server}`;
  throw new Error(
    `${path} would be both ${what(holder)} and ${what(route)}: give one of them another \`path\`, or set \`card: false\``,
  );
}
