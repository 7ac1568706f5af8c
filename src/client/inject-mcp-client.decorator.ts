import { Inject } from '@nestjs/common';

/**
 * The injection token of the {@link McpClientConnection} of the server `name`.
 *
 * @publicApi
 */
export function getMcpClientToken(name: string): string {
  return `mocapi:mcp-client:${name}`;
}

/**
 * Injects the {@link McpClientConnection} of the server `name` of `McpClientModule`:
 *
 * ```ts
 * constructor(@InjectMcpClient('weather') private readonly weather: McpClientConnection) {}
 * ```
 *
 * With `forRootAsync`, list the names in its `clients` option (the servers are only known once
 * the factory has run); `McpClientRegistry.get(name)` works for every server either way.
 *
 * @publicApi
 */
export function InjectMcpClient(name: string): PropertyDecorator & ParameterDecorator {
  return Inject(getMcpClientToken(name));
}
