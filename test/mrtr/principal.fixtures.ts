import { Global, Injectable, Module } from '@nestjs/common';
import { McpPrincipalSource, type McpExchange } from '../../src/index.js';
import { INTEGRATION_PRINCIPAL_SOURCE } from '../../src/core/mcp.tokens.js';

/** Reads the caller from one HTTP request header (a stand-in for real authentication). */
export function headerPrincipal(exchange: McpExchange, header: string): string | null {
  if (exchange.transport.kind !== 'http') return null;
  const value = exchange.transport.request.headers[header];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** The application's own source: the caller is the `x-user` header. */
@Injectable()
export class AppHeaderPrincipalSource extends McpPrincipalSource {
  resolve(exchange: McpExchange): string | null {
    const user = headerPrincipal(exchange, 'x-user');
    return user === null ? null : `app:${user}`;
  }
}

/** What an integration module (such as oauth2) would register: the caller is the `x-integration-user` header. */
@Injectable()
export class IntegrationHeaderPrincipalSource extends McpPrincipalSource {
  resolve(exchange: McpExchange): string | null {
    const user = headerPrincipal(exchange, 'x-integration-user');
    return user === null ? null : `integration:${user}`;
  }
}

/** A stand-in integration module: global, filling the core's principal-source slot, as McpOAuth2Module does. */
@Global()
@Module({
  providers: [
    IntegrationHeaderPrincipalSource,
    { provide: INTEGRATION_PRINCIPAL_SOURCE, useExisting: IntegrationHeaderPrincipalSource },
  ],
  exports: [INTEGRATION_PRINCIPAL_SOURCE, IntegrationHeaderPrincipalSource],
})
export class StandInIntegrationModule {}
