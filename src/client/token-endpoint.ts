import { McpClientError } from './mcp-client.error.js';
import { bodyCounter, boundedBody } from './size-bounded-fetch.js';

/** A token is fetched again this long before it expires (or at half its life, if shorter). */
const EXPIRY_MARGIN_MS = 30_000;
/** The lifetime assumed when the token endpoint gives no `expires_in`. */
const DEFAULT_LIFETIME_MS = 300_000;
/** A token response is a few kilobytes; past this its body is not read further. */
export const MAX_TOKEN_RESPONSE_BYTES = 64 * 1024;

/** How this application authenticates to the token endpoint. */
export interface TokenEndpointClient {
  tokenEndpoint: string;
  clientId: string;
  clientSecret: string;
  authMethod?: 'client_secret_basic' | 'client_secret_post';
}

/** An access token and when to fetch a new one. */
export interface IssuedToken {
  readonly token: string;
  readonly refreshAt: number;
}

/**
 * One request to an OAuth token endpoint (RFC 6749 §3.2) with the grant's `params`, the client
 * authenticated by its secret; failures are `McpClientError`s naming the server the token is for.
 */
export async function requestToken(
  server: string,
  client: TokenEndpointClient,
  params: Record<string, string>,
  timeoutMs: number,
): Promise<IssuedToken> {
  const { tokenEndpoint, clientId, clientSecret, authMethod = 'client_secret_basic' } = client;
  const body = new URLSearchParams(params);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
  };
  if (authMethod === 'client_secret_post') {
    body.set('client_id', clientId);
    body.set('client_secret', clientSecret);
  } else {
    // RFC 6749 §2.3.1: each part form-urlencoded before base64.
    const basic = `${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`;
    headers['authorization'] = `Basic ${Buffer.from(basic).toString('base64')}`;
  }
  const started = Date.now();
  let response: Response;
  try {
    response = await fetch(tokenEndpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = (error as { name?: string }).name === 'TimeoutError';
    throw new McpClientError(
      server,
      timedOut ? 'timeout' : 'unreachable',
      timedOut
        ? `the token endpoint did not answer within ${timeoutMs} ms`
        : `cannot reach the token endpoint ${tokenEndpoint}`,
      { cause: error },
    );
  }
  const answer = (await readJson(server, response)) as
    { access_token?: unknown; expires_in?: unknown; error?: unknown; error_description?: unknown } | undefined;
  if (!response.ok) {
    const reason =
      typeof answer?.error === 'string'
        ? `${answer.error}${typeof answer.error_description === 'string' ? `: ${answer.error_description}` : ''}`
        : `HTTP ${response.status}`;
    const grant = params['grant_type']?.endsWith(':token-exchange') ? 'token exchange' : 'client credentials';
    throw new McpClientError(server, 'unauthorized', `the token endpoint refused the ${grant} request (${reason})`);
  }
  if (typeof answer?.access_token !== 'string' || answer.access_token === '') {
    throw new McpClientError(server, 'invalid-response', 'the token endpoint answered without an access_token');
  }
  const lifetime =
    typeof answer.expires_in === 'number' && answer.expires_in > 0 ? answer.expires_in * 1000 : DEFAULT_LIFETIME_MS;
  return { token: answer.access_token, refreshAt: started + lifetime - Math.min(EXPIRY_MARGIN_MS, lifetime / 2) };
}

/** The response's JSON, read to at most {@link MAX_TOKEN_RESPONSE_BYTES}; undefined when it is no JSON. */
async function readJson(server: string, response: Response): Promise<unknown> {
  if (response.body === null) return undefined;
  const body = boundedBody(
    response.body,
    bodyCounter(MAX_TOKEN_RESPONSE_BYTES),
    () =>
      new McpClientError(
        server,
        'invalid-response',
        `the token endpoint's answer is larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`,
      ),
  );
  return new Response(body).json().catch((error: unknown) => {
    if (error instanceof McpClientError) throw error;
    return undefined;
  });
}
