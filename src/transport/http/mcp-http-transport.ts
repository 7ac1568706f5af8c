import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { bindExpress } from './express-binding.js';
import { bindFastify } from './fastify-binding.js';
import { McpHttpHandler } from './mcp-http-handler.js';
import { MCP_HTTP_OPTIONS, type ResolvedMcpHttpOptions } from './mcp-http.options.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../../core/mcp-server.options.js';

/** The MCP paths mounted on each HTTP server instance (several servers may share one application). */
const mounted = new WeakMap<object, Set<string>>();

/**
 * Mounts the Streamable HTTP endpoint on whichever HTTP adapter the application runs; a second
 * server on the same path of the same application fails startup.
 */
@Injectable()
export class McpHttpTransport implements OnModuleInit {
  private readonly logger = new Logger('McpHttp');

  constructor(
    @Inject(MCP_HTTP_OPTIONS) private readonly options: ResolvedMcpHttpOptions,
    @Inject(MCP_SERVER_OPTIONS) private readonly server: ResolvedMcpServerOptions,
    private readonly adapterHost: HttpAdapterHost,
    private readonly handler: McpHttpHandler,
  ) {}

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!this.options.http || !adapter) return;
    const type = adapter.getType();
    const instance = adapter.getInstance();
    const paths = mounted.get(instance) ?? new Set<string>();
    const { path } = this.server;
    if (paths.has(path)) {
      throw new Error(
        `Two MCP servers are mounted on ${path}: give each McpModule.forRoot of this application its own \`path\``,
      );
    }
    paths.add(path);
    mounted.set(instance, paths);
    if (type === 'express') bindExpress(instance, path, this.handler);
    else if (type === 'fastify') bindFastify(instance, path, this.handler);
    else {
      this.logger.warn(`No MCP endpoint mounted: HTTP adapter "${type}" is not supported (use Express or Fastify)`);
      return;
    }
    const eras = [this.server.eras.modern && '2026-07-28', this.server.eras.legacy && '2025-era sessions']
      .filter(Boolean)
      .join(' + ');
    this.logger.log(`MCP endpoint: ${path} (${type}; ${eras})`);
  }
}
