import type { IncomingMessage, ServerResponse } from 'node:http';
export { McpHttpChallenge } from '../../protocol/mcp-http-challenge.js';

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

/** The authenticator this server uses (its own, the integration's, or null for none). */
export const MCP_HTTP_AUTHENTICATOR = Symbol.for('mocapi:http-authenticator');
