/**
 * A rejection the HTTP transport writes as is: status, headers (e.g. `WWW-Authenticate`) and a
 * small JSON body. Thrown by an HTTP authenticator or an access policy; any transport other than HTTP answers it as an invalid request.
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
