import {
  Client,
  type Request,
  type RequestMethod,
  type RequestOptions,
  type ResultTypeMap,
  type StandardSchemaV1,
} from '@modelcontextprotocol/client';
import { clientFailure } from './client-failure.js';
import { McpClientError } from './mcp-client.error.js';
import type { ResolvedMcpClientServer } from './mcp-client.options.js';
import { responseCutOffScope } from './size-bounded-fetch.js';

type RequestArgs = [request: { method: string }, schemaOrOptions?: unknown, options?: unknown];

const isSchema = (value: unknown): boolean => value !== null && typeof value === 'object' && '~standard' in value;

/**
 * The official `Client`, with the bounds of its server's options on every request: a request that
 * passes no `timeout` gets the server's `timeoutMs` (the official client's default is 60 s), one
 * whose answer the fetch cuts off (`maxResponseBytes`) fails at once with `too-large`, and a
 * failure that means the server could not answer (down, slow, garbage) becomes an
 * `McpClientError` naming the server and the method.
 */
export class BoundedClient extends Client {
  constructor(private readonly server: ResolvedMcpClientServer) {
    super(server.clientInfo, server.clientOptions);
  }

  // The official client's two overloads, one implementation.
  override request<M extends RequestMethod>(
    request: { method: M; params?: Record<string, unknown> },
    options?: RequestOptions,
  ): Promise<ResultTypeMap[M]>;
  override request<T extends StandardSchemaV1>(
    request: Request,
    resultSchema: T,
    options?: RequestOptions,
  ): Promise<StandardSchemaV1.InferOutput<T>>;
  override request(...args: RequestArgs): Promise<never> {
    const [request, second, third] = args;
    const withSchema = isSchema(second);
    const given = (withSchema ? third : second) as RequestOptions | undefined;
    // Aborted when the fetch cuts an answer to this request off (maxResponseBytes): the official
    // client then cancels the request, and it fails at once rather than when it times out.
    const cutOff = new AbortController();
    const options = {
      ...given,
      timeout: given?.timeout ?? this.server.timeoutMs,
      signal: given?.signal ? AbortSignal.any([given.signal, cutOff.signal]) : cutOff.signal,
    };
    const tooLarge = (maxBytes: number): void =>
      cutOff.abort(
        new McpClientError(
          this.server.name,
          'too-large',
          `${request.method}: the answer is larger than ${maxBytes} bytes (maxResponseBytes)`,
        ),
      );
    const call = responseCutOffScope.run(tooLarge, () =>
      withSchema
        ? (super.request as (...a: RequestArgs) => Promise<unknown>)(request, second, options)
        : (super.request as (...a: RequestArgs) => Promise<unknown>)(request, options),
    );
    return call.then(
      (result) => result as never,
      (error: unknown) => {
        if (cutOff.signal.aborted) throw cutOff.signal.reason;
        if (this.sessionGone(error)) {
          // The server no longer knows this 2025-era session: this connection is done, and the
          // handle's next client() starts a new one.
          void this.close().catch(() => undefined);
          throw new McpClientError(
            this.server.name,
            'unreachable',
            `${request.method}: the server no longer knows this session (HTTP 404); the next call connects again`,
            { cause: error },
          );
        }
        throw clientFailure(this.server.name, request.method, error, options.timeout) ?? error;
      },
    );
  }

  private sessionGone(error: unknown): boolean {
    const status = (error as { data?: { status?: unknown } } | null)?.data?.status;
    const transport = this.transport as { sessionId?: string } | undefined;
    return status === 404 && this.getProtocolEra() === 'legacy' && transport?.sessionId !== undefined;
  }
}
