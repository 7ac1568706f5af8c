/**
 * A JSON-RPC error answer received by {@link McpTestClient}, with the HTTP status it came with.
 *
 * @publicApi
 */
export class McpTestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data: unknown,
    readonly status: number,
  ) {
    super(`${message} (JSON-RPC ${code}, HTTP ${status})`);
    this.name = 'McpTestError';
  }
}
