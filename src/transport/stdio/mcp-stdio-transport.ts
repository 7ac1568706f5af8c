import type { Readable, Writable } from 'node:stream';
import { Inject, Injectable, type INestApplicationContext, Logger, Optional } from '@nestjs/common';
import { McpEraRouter } from '../../dispatch/mcp-era-router.js';
import { LegacySessions } from '../../legacy/legacy-sessions.js';
import { LegacyDispatcher } from '../../legacy/legacy-dispatcher.js';
import { McpDispatcher } from '../../dispatch/mcp-dispatcher.js';
import { McpStdioConnection } from './mcp-stdio-connection.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../../core/mcp-server.options.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../../core/mcp-limits.options.js';

/** Where a stdio session reads and writes; the process's own stdin/stdout by default. */
export interface McpStdioStreams {
  /** Newline-delimited JSON-RPC from the client. Default `process.stdin`. */
  input?: Readable;
  /** Where answers go, one JSON message per line, nothing else. Default `process.stdout`. */
  output?: Writable;
  /** The largest line accepted, in bytes. Default: the module's `limits.maxBodyBytes`. */
  maxLineBytes?: number;
}

/**
 * The stdio transport (newline-delimited JSON-RPC over stdin/stdout): the same dispatcher, tools
 * and MRTR flows as Streamable HTTP. Most servers start it through {@link bootstrapStdio}; to run it
 * yourself, provide it in a module that imports `McpModule` (or construct it with the module's
 * options and dispatcher) and call {@link listen}.
 *
 * @publicApi
 */
@Injectable()
export class McpStdioTransport {
  private readonly logger = new Logger('McpStdio');

  /** The `path` of the server this transport serves (which server it is, when an application runs several). */
  readonly path: string;

  /** @internal */
  constructor(
    @Inject(MCP_SERVER_OPTIONS) private readonly options: ResolvedMcpServerOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly dispatcher: McpDispatcher,
    @Optional() private readonly legacy?: LegacyDispatcher,
    @Optional() private readonly sessions?: LegacySessions,
    @Optional() private readonly eras?: McpEraRouter,
  ) {
    this.path = options.path;
  }

  /** The name and version of the server this transport serves. */
  get serverInfo(): { readonly name: string; readonly version: string } {
    return { name: this.options.name, version: this.options.version };
  }

  /**
   * The transport wired from the providers of an application context (or a testing module) that
   * imports `McpModule`, as {@link bootstrapStdio} builds it. `server` is the `path` of the server
   * to serve when the application runs several; without it, the only server, else the one at
   * `/mcp`. Throws when `McpModule` is missing, or no server matches.
   */
  static fromContext(context: Pick<INestApplicationContext, 'get'>, server?: string): McpStdioTransport {
    const all = context.get(McpStdioTransport, { strict: false, each: true });
    if (all.length === 0) throw new Error('No McpModule in this application context');
    if (server === undefined && all.length === 1) return all[0]!;
    const path = server ?? '/mcp';
    const chosen = all.find((transport) => transport.path === path);
    if (!chosen) {
      const served = all.map((t) => t.path).join(', ');
      throw new Error(
        server === undefined
          ? `This application serves several MCP servers (${served}): name the one stdio serves (\`server\`)`
          : `No MCP server at path ${server} (this application serves ${served})`,
      );
    }
    return chosen;
  }

  /** Starts answering on the given streams (stdin/stdout by default); never writes anything but JSON-RPC to the output. */
  listen(streams: McpStdioStreams = {}): McpStdioConnection {
    const maxLineBytes = streams.maxLineBytes ?? this.limits.maxBodyBytes;
    if (!Number.isInteger(maxLineBytes) || maxLineBytes <= 0) {
      throw new TypeError(
        `McpStdioTransport.listen: maxLineBytes must be a positive integer, got ${String(maxLineBytes)}`,
      );
    }
    return new McpStdioConnection(this.dispatcher, {
      input: streams.input ?? process.stdin,
      output: streams.output ?? process.stdout,
      maxLineBytes,
      maxBacklogBytes: this.limits.maxStreamBacklogBytes,
      logger: this.logger,
      legacy:
        this.legacy && this.sessions && this.eras
          ? { dispatcher: this.legacy, sessions: this.sessions, eras: this.eras }
          : undefined,
    }).start();
  }
}
