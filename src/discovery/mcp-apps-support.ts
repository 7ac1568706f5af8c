import type { ClientCapabilities } from '../protocol/wire-types.js';
import type { McpResourceRegistry } from './mcp-resource.registry.js';
import type { RegisteredTool } from './registered-tool.js';

/**
 * The identifier of the MCP Apps extension (SEP-1865), under which a server and a client declare
 * it in `capabilities.extensions`.
 */
export const MCP_UI_EXTENSION = 'io.modelcontextprotocol/ui';

/**
 * The MIME type of an MCP App: an HTML document the host renders in a sandboxed iframe.
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

/**
 * Why a tool's link to an MCP App is broken (it names no registered resource, or one that is not
 * an app), naming both; undefined when the tool has no link or a good one. McpAppsModule checks
 * every tool at startup, McpRegistrar each tool added after it.
 */
export function appLinkProblem(tool: RegisteredTool, resources: McpResourceRegistry): string | undefined {
  const uri = tool.ui?.resourceUri;
  if (uri === undefined) return undefined;
  const resource = resources.resources.get(uri);
  if (!resource) {
    return `MCP tool "${tool.name}" (${tool.source}) is linked to ${uri}, which this server does not have: declare it with @McpAppResource({ uri: '${uri}' }) or McpAppsModule.forRoot({ apps: [{ uri: '${uri}', name, bundle }] }).`;
  }
  if (resource.definition.mimeType !== MCP_APP_MIME_TYPE) {
    return `MCP tool "${tool.name}" (${tool.source}) is linked to ${uri} (${resource.source}), which is not an MCP App resource: its mimeType must be ${MCP_APP_MIME_TYPE} (use @McpAppResource).`;
  }
  return undefined;
}
