import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { McpClientConnection } from './mcp-client-connection.js';
import type { ResolvedMcpClientServer } from './mcp-client.options.js';

/**
 * Every configured server's {@link McpClientConnection}, by name; closes them all when the
 * application shuts down (`app.close()`, or a signal with `enableShutdownHooks()`).
 *
 * @publicApi
 */
@Injectable()
export class McpClientRegistry implements OnApplicationShutdown {
  private readonly connections: ReadonlyMap<string, McpClientConnection>;

  /** @internal Built by `McpClientModule` from its options. */
  constructor(servers: readonly ResolvedMcpClientServer[]) {
    this.connections = new Map(servers.map((server) => [server.name, new McpClientConnection(server)]));
  }

  /** The names of the configured servers. */
  get names(): string[] {
    return [...this.connections.keys()];
  }

  /** The connection to the server `name`; throws when no server has that name. */
  get(name: string): McpClientConnection {
    const connection = this.connections.get(name);
    if (!connection) {
      throw new Error(`McpClientModule: no server "${name}" (configured: ${this.names.join(', ') || 'none'})`);
    }
    return connection;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.connections.values()].map((connection) => connection.close()));
  }
}
