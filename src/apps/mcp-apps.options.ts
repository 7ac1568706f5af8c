import { attachedServer } from '../mcp-servers.js';
import type { McpUiResourceDeclarations } from './mcp-ui-resource-meta.js';
import type { McpIcon } from '../protocol/icons.js';

/**
 * An MCP App served from a built file, e.g. the single HTML file of a Vite build with
 * `vite-plugin-singlefile` (scripts and styles inline: the host's sandbox resolves no relative URL).
 * The file is read once, at startup.
 *
 * @publicApi
 */
export interface McpAppBundleOptions extends McpUiResourceDeclarations {
  /** Must use the `ui://` scheme. */
  uri: string;
  name: string;
  title?: string;
  description?: string;
  /**
   * Images hosts may show for the app (SEP-973), listed with its resource in resources/list: each
   * `src` an `https:` URL or a `data:` URI of an image. Checked at startup.
   */
  icons?: readonly McpIcon[];
  /** Path of the HTML file; a relative path resolves against the working directory. */
  bundle: string;
}

/**
 * Options of `McpAppsModule.forRoot` / `forRootAsync`.
 *
 * @publicApi
 */
export interface McpAppsOptions {
  /** CSP origins every app resource declares, added to each resource's own. Default none. */
  csp?: McpUiResourceDeclarations['csp'];
  /** Permissions every app resource asks for, added to each resource's own. Default none. */
  permissions?: McpUiResourceDeclarations['permissions'];
  /** The border preference of app resources that state none. Default: left to the host. */
  prefersBorder?: boolean;
  /** Apps served from built files. */
  apps?: readonly McpAppBundleOptions[];
  /** The largest bundle file accepted, in bytes; a larger one fails startup. Default 5 MiB. */
  maxBundleBytes?: number;
  /**
   * The `path` of the server that serves the apps, when the application runs several
   * (`'/mcp/staff'`). Default: the global server. The other servers neither declare the extension
   * nor serve the app resources.
   */
  server?: string;
}

/** Options after defaults. */
export interface ResolvedMcpAppsOptions {
  readonly defaults: McpUiResourceDeclarations;
  readonly apps: readonly McpAppBundleOptions[];
  readonly maxBundleBytes: number;
  readonly server?: string;
}

export const DEFAULT_MAX_BUNDLE_BYTES = 5 * 1024 * 1024;

/** Thrown at startup when the options are wrong. */
export function resolveMcpAppsOptions(options: McpAppsOptions = {}): ResolvedMcpAppsOptions {
  const maxBundleBytes = options.maxBundleBytes ?? DEFAULT_MAX_BUNDLE_BYTES;
  if (!Number.isInteger(maxBundleBytes) || maxBundleBytes < 1) {
    throw new Error('McpAppsModule: maxBundleBytes must be a positive whole number of bytes');
  }
  const apps = options.apps ?? [];
  if (!Array.isArray(apps)) throw new Error('McpAppsModule: apps must be an array of { uri, name, bundle }');
  for (const app of apps) {
    if (typeof app?.bundle !== 'string' || app.bundle === '') {
      throw new Error(`McpAppsModule: the app ${String(app?.uri)} needs a bundle (the path of its HTML file)`);
    }
    if (typeof app.name !== 'string' || app.name === '') {
      throw new Error(`McpAppsModule: the app ${String(app.uri)} needs a name`);
    }
  }
  const server = attachedServer(options.server, 'McpAppsModule');
  return {
    defaults: { csp: options.csp, permissions: options.permissions, prefersBorder: options.prefersBorder },
    apps,
    maxBundleBytes,
    ...(server !== undefined && { server }),
  };
}
