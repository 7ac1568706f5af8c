import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';

export interface LegacyClientOptions {
  /** Answers each pushed elicitation/create. */
  onElicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** Client capabilities; default: form elicitation when onElicit is given. */
  capabilities?: Record<string, unknown>;
  /** Extra Client options (e.g. versionNegotiation); the default is the client's own default. */
  clientOptions?: Record<string, unknown>;
  fetch?: typeof fetch;
}

export interface LegacyClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** The elicitation/create params the server pushed, in order. */
  asked: Array<ElicitRequest['params']>;
  close(): Promise<void>;
}

/**
 * The official @modelcontextprotocol/client v2 with its **default** settings, as most users run it:
 * it opens with `initialize` (2025-11-25) and answers pushed requests with the handlers it has.
 */
export async function connectLegacyClient(url: string, options: LegacyClientOptions = {}): Promise<LegacyClient> {
  const asked: Array<ElicitRequest['params']> = [];
  const client = new Client(
    { name: 'mocapi-legacy-e2e', version: '1.0.0' },
    {
      capabilities: (options.capabilities ?? (options.onElicit ? { elicitation: {} } : {})) as never,
      ...options.clientOptions,
    },
  );
  if (options.onElicit) {
    const onElicit = options.onElicit;
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return onElicit(request.params);
    });
  }
  const transport = new StreamableHTTPClientTransport(
    new URL(url),
    options.fetch ? { fetch: options.fetch } : undefined,
  );
  await client.connect(transport);
  return { client, transport, asked, close: () => client.close() };
}
