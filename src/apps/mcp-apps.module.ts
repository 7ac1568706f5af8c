import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpAppsInstaller } from './mcp-apps-installer.js';
import { MCP_APPS_CONFIG, MCP_APPS_MODULE_OPTIONS, McpAppsConfigurableModule } from './mcp-apps.module-definition.js';
import { type McpAppsOptions, resolveMcpAppsOptions } from './mcp-apps.options.js';

/**
 * MCP Apps (`io.modelcontextprotocol/ui`, SEP-1865): tools whose results hosts that render apps
 * show in an interactive UI. Import it next to `McpModule` (which must stay global, its default):
 *
 * ```ts
 * @Module({
 *   imports: [
 *     McpModule.forRoot({ name: 'bistro', version: '1.0.0' }),
 *     McpAppsModule.forRoot({
 *       apps: [{ uri: 'ui://bistro/seating-picker', name: 'seating-picker', bundle: 'dist/seating-picker.html' }],
 *     }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 *
 * It declares `capabilities.extensions["io.modelcontextprotocol/ui"]` (`mimeTypes`) in the
 * `initialize` and `server/discover` results, serves every `@McpAppResource` method and every
 * bundle file of `apps` as a `text/html;profile=mcp-app` resource with its `_meta.ui` (CSP,
 * permissions, domain, border preference, with the module's defaults added), and fails startup on a
 * resource URI that is not `ui://`, a missing or oversized bundle file, or a tool linked
 * (`@McpTool({ ui })`) to a resource that is not an app.
 *
 * @publicApi
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    {
      provide: MCP_APPS_CONFIG,
      useFactory: (options: McpAppsOptions) => resolveMcpAppsOptions(options),
      inject: [MCP_APPS_MODULE_OPTIONS],
    },
    McpAppsInstaller,
  ],
})
export class McpAppsModule extends McpAppsConfigurableModule {}
