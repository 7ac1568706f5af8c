import {
  Client,
  StreamableHTTPClientTransport,
  type ElicitRequest,
  type ElicitResult,
} from '@modelcontextprotocol/client';

/** One HTTP exchange the official client made, as seen on the wire. */
export interface WireExchange {
  url: string;
  /** The JSON-RPC request body. */
  request: any;
  status: number;
  /** The JSON-RPC response body (undefined for non-JSON answers). */
  response: any;
}

export interface ElicitingClientOptions {
  /** Answers each elicitation/create the server asks for (auto-fulfilled by the client). */
  onElicit?: (params: ElicitRequest['params']) => ElicitResult | Promise<ElicitResult>;
  /** Roots to answer roots/list with (declares the roots capability). */
  roots?: Array<{ uri: string; name?: string }>;
  /** Client capabilities; default: form elicitation when onElicit is given, plus roots when given. */
  capabilities?: Record<string, unknown>;
  /** Rounds the client's MRTR driver may take for one call (its default is 10). */
  maxRounds?: number;
  /** Sends a request elsewhere (e.g. retries to another node); default: the URL the client chose. */
  route?: (request: any, url: string) => string;
}

export interface ElicitingClient {
  client: Client;
  /** Every HTTP exchange, in order. */
  wire: WireExchange[];
  /** The elicitation/create params the client was asked, in order. */
  asked: Array<ElicitRequest['params']>;
  /** The MRTR calls on the wire (tools/call, prompts/get, resources/read), in order. */
  calls(): WireExchange[];
  close(): Promise<void>;
}

const MRTR_METHODS = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The official @modelcontextprotocol/client v2, pinned to 2026-07-28, answering elicitations
 * automatically (its MRTR driver retries with the byte-exact requestState), with every HTTP
 * exchange recorded so tests can see the rounds and tokens.
 */
export async function connectElicitingClient(
  url: string,
  options: ElicitingClientOptions = {},
): Promise<ElicitingClient> {
  const wire: WireExchange[] = [];
  const asked: Array<ElicitRequest['params']> = [];
  const recordingFetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const request = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const target = options.route && request ? options.route(request, String(input)) : String(input);
    const response = await fetch(target, init);
    const type = response.headers.get('content-type') ?? '';
    const text = type.startsWith('application/json') ? await response.clone().text() : '';
    wire.push({ url: target, request, status: response.status, response: text ? JSON.parse(text) : undefined });
    return response;
  };
  const capabilities = options.capabilities ?? {
    ...(options.onElicit && { elicitation: {} }),
    ...(options.roots && { roots: {} }),
  };
  const client = new Client(
    { name: 'mocapi-mrtr-e2e', version: '1.0.0' },
    {
      capabilities: capabilities as never,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
      inputRequired: { maxRounds: options.maxRounds ?? 10 },
    },
  );
  if (options.onElicit) {
    const onElicit = options.onElicit;
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      return onElicit(request.params);
    });
  }
  if (options.roots) {
    const roots = options.roots;
    client.setRequestHandler('roots/list', async () => ({ roots }));
  }
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: recordingFetch }));
  return {
    client,
    wire,
    asked,
    calls: () => wire.filter((w) => MRTR_METHODS.has(w.request?.method)),
    close: () => client.close(),
  };
}
