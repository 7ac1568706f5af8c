import type { McpExchange } from '../protocol/mcp-exchange.js';

/**
 * Answers "who is calling" for one request. Every requestState is bound to this answer, so a
 * token minted for one caller is rejected for another.
 *
 * Precedence, independent of module import order: a source the application provides
 * (`McpModule.forRoot({ principalSource })`) > one an integration module registers
 * (`@mocapi/nestjs/oauth2`) > the anonymous default, which answers `null`.
 *
 * @publicApi
 */
export abstract class McpPrincipalSource {
  /**
   * A stable identifier of the caller (e.g. the JWT `sub`), or `null` when unauthenticated.
   * `request` is where the request came from (the HTTP request, with what an authenticator attached
   * to it, or stdio): every exchange is one; a 2025-era `initialize`, which has no exchange yet,
   * passes just its transport.
   */
  abstract resolve(request: Pick<McpExchange, 'transport'>): string | null;
}

/** The core default: nobody is authenticated. */
export class AnonymousPrincipalSource extends McpPrincipalSource {
  resolve(): null {
    return null;
  }
}
