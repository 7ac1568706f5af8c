import {
  StreamableHTTPClientTransport,
  type AuthProvider,
  type Client,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { BoundedClient } from './bounded-client.js';
import { clientFailure } from './client-failure.js';
import { clientAuth, clientTransport } from './client-transport.js';
import { McpClientError } from './mcp-client.error.js';
import type { ResolvedMcpClientServer } from './mcp-client.options.js';

/**
 * The handle on one configured MCP server, what `@InjectMcpClient(name)` injects. It connects
 * lazily, on the first `client()`, and every later `client()` reuses that connection (one 2025-era
 * session, or one negotiated 2026-07-28 client) until it closes; then the next `client()`
 * connects again. A failed connection attempt is not kept: the next `client()` tries again. The
 * module closes it when the application shuts down.
 *
 * ```ts
 * const weather = await this.weather.client();
 * const result = await weather.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
 * ```
 *
 * @publicApi
 */
export class McpClientConnection {
  private current?: Promise<Client>;
  private live?: Client;
  private readonly opened = new Set<Client>();
  private closed = false;
  private readonly auth: AuthProvider | OAuthClientProvider | undefined;

  /** @internal Built by `McpClientRegistry` from the module's options. */
  constructor(private readonly server: ResolvedMcpClientServer) {
    this.auth = clientAuth(server);
  }

  /** The server's name in the module's options. */
  get name(): string {
    return this.server.name;
  }

  /** The server's URL; undefined for a `stdio` server. */
  get url(): URL | undefined {
    return this.server.url;
  }

  /**
   * The connected official `Client` (connecting first if needed). Requests that pass no `timeout`
   * wait at most the server's `timeoutMs`; a server that is down, slow or not speaking MCP fails
   * with {@link McpClientError}.
   */
  client(): Promise<Client> {
    if (this.closed) {
      return Promise.reject(new McpClientError(this.server.name, 'closed', 'the application is shutting down'));
    }
    if (!this.current) {
      const connecting = this.connect(true);
      this.current = connecting;
      connecting.catch(() => {
        if (this.current === connecting) this.current = undefined;
      });
    }
    return this.current;
  }

  /**
   * A new connection of the caller's own, neither shared nor reused: for what belongs to one flow,
   * such as a 2025-era session whose call waits on a question the server pushed. The caller closes
   * it (`client.close()`); the module closes those still open when the application shuts down.
   */
  async open(): Promise<Client> {
    if (this.closed) throw new McpClientError(this.server.name, 'closed', 'the application is shutting down');
    return this.connect(false);
  }

  /**
   * Closes the connection, and those of {@link McpClientConnection.open} still open: ends a
   * 2025-era session on the server (HTTP DELETE, waiting at most `timeoutMs`), stops a stdio child.
   * Later `client()` and `open()` calls fail with `McpClientError` (`closed`).
   */
  async close(): Promise<void> {
    this.closed = true;
    const client = await this.current?.catch(() => undefined);
    this.current = undefined;
    await Promise.all([...(client ? [client] : []), ...this.opened].map((each) => this.end(each)));
  }

  private async end(client: Client): Promise<void> {
    const transport = client.transport;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        transport.terminateSession().catch(() => undefined),
        new Promise((resolve) => (timer = setTimeout(resolve, this.server.timeoutMs))),
      ]).finally(() => clearTimeout(timer));
    }
    await client.close().catch(() => undefined);
  }

  /** A new connected client: the shared one of `client()`, or one of `open()`. */
  private async connect(shared: boolean): Promise<Client> {
    const client = new BoundedClient(this.server);
    this.server.configureClient?.(client);
    client.onclose = () => {
      // The connection ended (closed, the stdio child exited, the session is gone): the next
      // client() connects again.
      this.opened.delete(client);
      if (this.live === client) {
        this.live = undefined;
        this.current = undefined;
      }
    };
    try {
      await client.connect(clientTransport(this.server, this.auth), { timeout: this.server.timeoutMs });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw clientFailure(this.server.name, 'connect', error, this.server.timeoutMs) ?? error;
    }
    if (this.closed) {
      await client.close().catch(() => undefined);
      throw new McpClientError(this.server.name, 'closed', 'the application is shutting down');
    }
    if (shared) this.live = client;
    else this.opened.add(client);
    return client;
  }
}
