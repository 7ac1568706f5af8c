import { SetMetadata } from '@nestjs/common';
import type { McpIcon } from '../protocol/icons.js';
import type { Annotations } from '../protocol/wire-types.js';
import type { McpCompleter } from './mcp-completer.js';
import { MCP_RESOURCE_TEMPLATE_METADATA } from './mcp-metadata.constants.js';

/** @publicApi */
export interface McpResourceTemplateOptions {
  /** An RFC 6570 URI template, e.g. `orders://{id}` or `files:///{+path}`. */
  uriTemplate: string;
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /**
   * Images hosts may show for the template (SEP-973): each `src` an `https:` URL or a `data:` URI of
   * an image, with optional `mimeType`, `sizes` (`48x48`, `any`) and `theme` (`light`, `dark`).
   * Listed in resources/templates/list in both eras; checked at startup.
   */
  icons?: readonly McpIcon[];
  mimeType?: string;
  annotations?: Annotations;
  /**
   * Extra `_meta` advertised with the template in resources/templates/list and put on the contents
   * resources/read answers for the URI read (keys the handler's own contents set
   * win; `ui` is merged key by key, so a handler setting `prefersBorder` keeps the declared CSP).
   */
  _meta?: Record<string, unknown>;
  /** Completers per template variable (completion/complete). */
  completers?: Readonly<Record<string, McpCompleter>>;
}

/**
 * Exposes a provider method as an MCP resource template. resources/read of a matching URI calls it
 * with `({ uri, ...variables }, exchange)`; return values are read as for `@McpResource`.
 *
 * @publicApi
 */
export const McpResourceTemplate = (options: McpResourceTemplateOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_TEMPLATE_METADATA, options);
