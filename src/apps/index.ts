/**
 * `@mocapi/nestjs/apps`: MCP Apps (`io.modelcontextprotocol/ui`), interactive UIs that hosts render
 * for tools linked to them. No dependency beyond the core: the extension is metadata and resources.
 */
export { McpAppsModule } from './mcp-apps.module.js';
export type { McpAppsConfigurableModule, McpAppsOptionsFactory } from './mcp-apps.module-definition.js';
export { DEFAULT_MAX_BUNDLE_BYTES, type McpAppBundleOptions, type McpAppsOptions } from './mcp-apps.options.js';
export { McpAppResource, type McpAppResourceOptions } from './mcp-app-resource.decorator.js';
export type { McpUiCsp, McpUiPermissions, McpUiResourceDeclarations } from './mcp-ui-resource-meta.js';
export { MCP_APP_MIME_TYPE, MCP_UI_EXTENSION, clientRendersApps } from '../discovery/mcp-apps-support.js';
export type { McpToolUiOptions, McpUiVisibility } from '../decorators/mcp-tool.decorator.js';
// Named by the signatures above; also exported by `@mocapi/nestjs`.
export type { ClientCapabilities } from '../protocol/wire-types.js';
export type { McpIcon } from '../protocol/icons.js';
