import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A rejection the HTTP transport writes as is: status, headers (e.g. `WWW-Authenticate`) and a
 * small JSON body. Thrown by an {@link McpHttpAuthenticator}.
 *
 * @publicApi
 */
export class McpHttpChallenge extends Error {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Readonly<Record<string, unknown>>,
  ) {
    super(String(body['error_description'] ?? body['error'] ?? `HTTP ${status}`));
    this.name = 'McpHttpChallenge';
  }
}

/**
 * Runs on every POST to the MCP endpoint before the JSON-RPC message is dispatched. An integration
 * module (e.g. `@mocapi/nestjs/oauth2`) provides it; without one, requests are not authenticated.
 * It may set `req.user`, and it throws {@link McpHttpChallenge} to refuse the request.
 *
 * @publicApi
 */
export abstract class McpHttpAuthenticator {
  abstract authenticate(req: IncomingMessage, res: ServerResponse): Promise<void>;
}
