import { SetMetadata } from '@nestjs/common';
import type { McpIcon } from '../protocol/icons.js';
import type { Annotations } from '../protocol/wire-types.js';
import { MCP_RESOURCE_METADATA } from './mcp-metadata.constants.js';

/** @publicApi */
export interface McpResourceOptions {
  uri: string;
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description?: string;
  /**
   * Images hosts may show for the resource (SEP-973): each `src` an `https:` URL or a `data:` URI of
   * an image, with optional `mimeType`, `sizes` (`48x48`, `any`) and `theme` (`light`, `dark`).
   * Listed in resources/list in both eras; checked at startup.
   */
  icons?: readonly McpIcon[];
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  /**
   * Extra `_meta` advertised with the resource in resources/list and put on the contents
   * resources/read answers for its URI (keys the handler's own contents set
   * win; `ui` is merged key by key, so a handler setting `prefersBorder` keeps the declared CSP).
   */
  _meta?: Record<string, unknown>;
}

/**
 * Exposes a provider method as a fixed MCP resource (resources/list, resources/read). Return a
 * string (text), a Buffer (blob), an object (JSON text), resource contents, or a full
 * ReadResourceResult. The handler receives `({ uri }, exchange)` and may elicit.
 *
 * @publicApi
 */
export const McpResource = (options: McpResourceOptions): MethodDecorator =>
  SetMetadata(MCP_RESOURCE_METADATA, options);
