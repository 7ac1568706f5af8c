import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export interface ClientOptions {
  capabilities?: Record<string, unknown>;
  fetch?: typeof fetch;
}

/** The official @modelcontextprotocol/client v2, pinned to 2026-07-28, connected over Streamable HTTP. */
export async function connectOfficialClient(url: string, options: ClientOptions = {}): Promise<Client> {
  const client = new Client(
    { name: 'mocapi-e2e', version: '1.0.0' },
    { capabilities: (options.capabilities ?? {}) as never, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), options.fetch ? { fetch: options.fetch } : undefined),
  );
  return client;
}
