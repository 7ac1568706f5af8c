import { SetMetadata } from '@nestjs/common';
import type { McpUiResourceDeclarations } from './mcp-ui-resource-meta.js';
import type { McpIcon } from '../protocol/icons.js';

/** Read by `McpAppsModule` at startup (the core explorer does not see app resources). */
export const MCP_APP_RESOURCE_METADATA = 'mocapi:app-resource';

/** @publicApi */
export interface McpAppResourceOptions extends McpUiResourceDeclarations {
  /** Must use the `ui://` scheme, e.g. `ui://bistro/seating-picker` (checked at startup). */
  uri: string;
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /**
   * Images hosts may show for the app (SEP-973), listed with its resource in resources/list: each
   * `src` an `https:` URL or a `data:` URI of an image. Checked at startup.
   */
  icons?: readonly McpIcon[];
}

/**
 * Exposes a provider method as an MCP App resource (`io.modelcontextprotocol/ui`): a complete HTML
 * document, served as `text/html;profile=mcp-app`, that hosts render in a sandboxed iframe for the
 * tools linked to it (`@McpTool({ ui: { resourceUri } })`). The method returns the HTML (a string or
 * a Buffer) or resource contents; `csp`, `permissions`, `domain` and `prefersBorder` go to hosts in
 * `_meta.ui` of the resources/list entry and of the contents. Needs `McpAppsModule`. To serve a
 * built bundle file instead, list it in `McpAppsModule.forRoot({ apps })`.
 *
 * @publicApi
 */
export const McpAppResource = (options: McpAppResourceOptions): MethodDecorator =>
  SetMetadata(MCP_APP_RESOURCE_METADATA, options);
