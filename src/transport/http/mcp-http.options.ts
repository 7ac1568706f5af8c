import { BOOLEAN, NON_EMPTY_STRINGS } from '../../core/option-checks.js';
import { check, defineSection, option, type ResolvedSection, resolveSection } from '../../core/option-section.js';

/** Where and to whom the Streamable HTTP endpoint answers (part of `McpModule.forRoot`). */
export interface McpHttpOptions {
  /** Serve the Streamable HTTP endpoint. Default true (set false for a stdio-only server). */
  http?: boolean;
  /**
   * Origins allowed in the `Origin` header, e.g. 'https://app.example.com'. Loopback origins are
   * always allowed. A request with any other Origin gets 403. Use '*' to allow every origin.
   */
  allowedOrigins?: string[];
  /**
   * Hosts allowed in the `Host` header (DNS-rebinding protection), e.g. 'mcp.example.com' or
   * 'mcp.example.com:8443'. Loopback hosts are always allowed. Use '*' to allow every host.
   */
  allowedHosts?: string[];
  /**
   * The longest, in milliseconds, an open SSE stream of the endpoint (a `subscriptions/listen`
   * stream, a call answered as a stream, a 2025-era session's GET) stays silent: one that sent
   * nothing for that long gets a `: keep-alive` comment, so that proxies and load balancers do not
   * close it as idle. Clients ignore comments. Default 25000, under the 60 s idle timeout of nginx
   * and of most load balancers; 0 sends none.
   */
  sseKeepAliveMs?: number;
}

/** The check and the default of every field of {@link McpHttpOptions}. */
export const HTTP = defineSection<McpHttpOptions>()({
  http: option(BOOLEAN, true),
  allowedOrigins: option(NON_EMPTY_STRINGS, []),
  allowedHosts: option(NON_EMPTY_STRINGS, []),
  sseKeepAliveMs: option(
    check(
      (value): value is number => Number.isSafeInteger(value) && (value as number) >= 0,
      'must be a whole number of milliseconds, 0 or more',
    ),
    25_000,
  ),
});

/** {@link McpHttpOptions} after defaults were applied. */
export type ResolvedMcpHttpOptions = ResolvedSection<typeof HTTP>;

/** Injection token of the {@link ResolvedMcpHttpOptions}. */
export const MCP_HTTP_OPTIONS = Symbol.for('mocapi:options:http');

/** Applies the defaults of the HTTP section; each problem found is added to `problems`. */
export function resolveHttpOptions(o: McpHttpOptions, problems: string[]): ResolvedMcpHttpOptions {
  return resolveSection(HTTP, o, '', problems);
}
