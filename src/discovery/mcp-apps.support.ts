import type { ClientCapabilities } from '../protocol/wire-types.js';

/**
 * The identifier of the MCP Apps extension (SEP-1865), under which a server and a client declare
 * it in `capabilities.extensions`.
 *
 * @publicApi
 */
export const MCP_UI_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * The MIME type of an MCP App: an HTML document the host renders in a sandboxed iframe.
 *
 * @publicApi
 */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * The deprecated flat key of a tool's UI link, still read by hosts built before the nested
 * `_meta.ui.resourceUri`; sent in addition to it, as the extension's own server helper does.
 */
export const FLAT_RESOURCE_URI_KEY = 'ui/resourceUri';

/**
 * Whether the client renders MCP Apps: it declares the extension with the app MIME type among its
 * `mimeTypes`. A 2025-era client declares it in `initialize` (kept by its session), a 2026-07-28
 * client in each request's `_meta` client capabilities; `exchange.clientCapabilities` is either.
 * A handler uses it to shape its answer; the text content must be meaningful either way.
 *
 * @publicApi
 */
export function clientRendersApps(exchange: { readonly clientCapabilities?: Readonly<ClientCapabilities> }): boolean {
  const extensions = exchange.clientCapabilities?.extensions;
  if (typeof extensions !== 'object' || extensions === null) return false;
  const declared = (extensions as Record<string, unknown>)[MCP_UI_EXTENSION];
  if (typeof declared !== 'object' || declared === null) return false;
  const mimeTypes = (declared as { mimeTypes?: unknown }).mimeTypes;
  return Array.isArray(mimeTypes) && mimeTypes.includes(MCP_APP_MIME_TYPE);
}
