import type { McpExchange } from '../protocol/mcp-exchange.js';

/**
 * What a principal source reads of a request: where it came from (the HTTP request, with what an
 * authenticator attached to it, or stdio). Every exchange is one; a 2025-era `initialize`, which
 * has no exchange yet, passes just its transport.
 *
 * @publicApi
 */
export type McpPrincipalRequest = Pick<McpExchange, 'transport'>;

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
  /** A stable identifier of the caller (e.g. the JWT `sub`), or `null` when unauthenticated. */
  abstract resolve(request: McpPrincipalRequest): string | null;
}

/** The core default: nobody is authenticated. */
export class AnonymousPrincipalSource extends McpPrincipalSource {
  resolve(): null {
    return null;
  }
}
