import { McpClientError } from './mcp-client.error.js';

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ENOENT',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  data?: unknown;
  cause?: unknown;
}

/** The error and its causes, outermost first (at most a few levels). */
function chain(error: unknown): ErrorLike[] {
  const links: ErrorLike[] = [];
  let current: unknown = error;
  while (current !== null && typeof current === 'object' && links.length < 5) {
    links.push(current as ErrorLike);
    const data = (current as ErrorLike).data as { cause?: unknown } | undefined;
    current = (current as ErrorLike).cause ?? data?.cause;
  }
  return links;
}

/** The `retryAfterMs` of a -32051 body the server answered with its 503, if any. */
function retryAfterOf(data: unknown): number | undefined {
  const text = (data as { text?: unknown } | undefined)?.text;
  if (typeof text !== 'string') return undefined;
  try {
    const body = JSON.parse(text) as { error?: { data?: { retryAfterMs?: unknown } } };
    const value = body.error?.data?.retryAfterMs;
    return typeof value === 'number' && value >= 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The {@link McpClientError} for an error of the official client that says the server could not
 * answer (down, slow, garbage, 503, 401); `undefined` for anything else, such as a JSON-RPC error
 * the server answered, which the caller gets unchanged.
 */
export function clientFailure(
  server: string,
  doing: string,
  error: unknown,
  timeoutMs: number,
): McpClientError | undefined {
  if (error instanceof McpClientError) return error;
  const links = chain(error);
  const [outer] = links;
  if (!outer) return undefined;
  const code = outer.code;
  const status = (outer.data as { status?: unknown } | undefined)?.status;
  if (code === 'REQUEST_TIMEOUT' || links.some((link) => link.name === 'TimeoutError')) {
    return new McpClientError(server, 'timeout', `${doing}: no answer within ${timeoutMs} ms`, { cause: error });
  }
  if (status === 503) {
    const retryAfterMs = retryAfterOf(outer.data);
    return new McpClientError(server, 'unavailable', `${doing}: temporarily unavailable (HTTP 503)`, {
      cause: error,
      retryAfterMs,
    });
  }
  if (
    status === 401 ||
    status === 403 ||
    outer.name === 'UnauthorizedError' ||
    outer.name === 'InsufficientScopeError' ||
    code === 'CLIENT_HTTP_AUTHENTICATION'
  ) {
    return new McpClientError(server, 'unauthorized', `${doing}: the server refused the credentials`, { cause: error });
  }
  if (
    links.some((link) => typeof link.code === 'string' && NETWORK_CODES.has(link.code)) ||
    outer.message === 'fetch failed'
  ) {
    return new McpClientError(server, 'unreachable', `${doing}: cannot connect (${describe(links)})`, { cause: error });
  }
  if (
    outer.name === 'ZodError' ||
    outer.name === 'SyntaxError' ||
    code === 'INVALID_RESULT' ||
    code === 'CLIENT_HTTP_UNEXPECTED_CONTENT' ||
    typeof status === 'number'
  ) {
    return new McpClientError(
      server,
      'invalid-response',
      `${doing}: the answer is not a valid MCP response (${describe(links)})`,
      {
        cause: error,
      },
    );
  }
  if (code === 'CONNECTION_CLOSED' || code === 'NOT_CONNECTED') {
    return new McpClientError(server, 'unreachable', `${doing}: the connection closed`, { cause: error });
  }
  return undefined;
}

function describe(links: ErrorLike[]): string {
  if (links[0]?.name === 'ZodError') return 'not JSON-RPC';
  const coded = links.find((link) => typeof link.code === 'string' && NETWORK_CODES.has(link.code));
  if (coded) return String(coded.code);
  const message = links.map((link) => link.message).find((m) => typeof m === 'string' && m !== '');
  return typeof message === 'string' ? message.split('\n')[0]!.slice(0, 200) : 'unknown error';
}
