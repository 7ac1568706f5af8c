// The parts of the 2026-07-28 schema this module reads or writes. Field names follow
// `schema/2026-07-28/schema.ts`; only what we use is spelled out.

import type { McpIcon } from './icons.js';

/**
 * Names a client or server: sent by clients as `_meta` clientInfo (optional, never required) and
 * by this server as `_meta` serverInfo on results (and as serverInfo in a 2025-era `initialize`
 * result), with its `icons` when `McpModule.forRoot({ icons })` gives some. Other fields pass through.
 *
 * @publicApi
 */
export interface Implementation {
  name: string;
  version: string;
  title?: string;
  icons?: readonly McpIcon[];
  [key: string]: unknown;
}

/**
 * What the client can do, declared afresh in `_meta` clientCapabilities on every request (`{}` means
 * nothing). `elicitation: {}` alone means form mode only; sampling and roots are deprecated but still
 * usable in `inputRequests` when declared, with `sampling.tools`/`.context` gating those params.
 *
 * @publicApi
 */
export interface ClientCapabilities {
  elicitation?: { form?: object; url?: object };
  sampling?: { tools?: object; context?: object };
  roots?: { listChanged?: boolean };
  extensions?: Record<string, unknown>;
  experimental?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * What the server offers, advertised only through `server/discover` and required to match the
 * handlers. `resources.subscribe` now means resource subscriptions via `subscriptions/listen`;
 * `logging` is deprecated but still allowed.
 */
export interface ServerCapabilities {
  /** `idempotency`: `tools/call` honours `idempotencyKey` (SEP-3182, draft). */
  tools?: { listChanged?: boolean; idempotency?: object };
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  completions?: object;
  logging?: object;
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * Syslog-style severity for `notifications/message`, lowest first. Logging is deprecated; the
 * server logs only when the request's `_meta` logLevel asks for it.
 *
 * @publicApi
 */
export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * The `cacheScope` hint sent with `ttlMs` (how many ms a result may be treated as fresh; 0 means stale at
 * once) on `server/discover`, list and `resources/read` results. `public` may be shared across
 * authorization contexts, `private` must not; neither goes on `input_required` results.
 *
 * @publicApi
 */
export type CacheScope = 'public' | 'private';

/**
 * Hints on content, resources and links: intended audience, relative priority (0 to 1) and an
 * ISO 8601 `lastModified` timestamp. Clients may use them to filter or order what they show.
 *
 * @publicApi
 */
export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

/**
 * A plain text content block.
 *
 * @publicApi
 */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/**
 * An image content block; `data` is base64 and `mimeType` says its format (e.g. `image/png`).
 *
 * @publicApi
 */
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/**
 * An audio content block; `data` is base64 and `mimeType` says its format (e.g. `audio/wav`).
 *
 * @publicApi
 */
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

/**
 * The contents of a textual resource, as returned by `resources/read` or embedded in content.
 *
 * @publicApi
 */
export interface TextResourceContents {
  uri: string;
  mimeType?: string;
  text: string;
  _meta?: Record<string, unknown>;
}
/**
 * The contents of a binary resource; `blob` is base64.
 *
 * @publicApi
 */
export interface BlobResourceContents {
  uri: string;
  mimeType?: string;
  blob: string;
  _meta?: Record<string, unknown>;
}
/**
 * Resource contents, told apart by whether they carry `text` or `blob`.
 *
 * @publicApi
 */
export type ResourceContents = TextResourceContents | BlobResourceContents;

/**
 * A content block that carries a resource's contents inline, in a tool result or prompt message.
 *
 * @publicApi
 */
export interface EmbeddedResource {
  type: 'resource';
  resource: ResourceContents;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/**
 * A content block that points at a resource by URI instead of inlining it; the client may read it
 * with `resources/read`. The resource need not appear in `resources/list`.
 *
 * @publicApi
 */
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
}

/**
 * Any content block a tool result or prompt message may hold.
 *
 * @publicApi
 */
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

/**
 * Behaviour hints for a tool. They are untrusted advice for the client's UI and consent flow,
 * never a security guarantee.
 *
 * @publicApi
 */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/**
 * A JSON Schema (2020-12 by default) kept as a plain object, so keywords such as `$defs` or
 * `x-mcp-header` pass through unchanged.
 *
 * @publicApi
 */
export type JsonSchema = Record<string, unknown>;

/**
 * A tool as listed by `tools/list`. `inputSchema` must be an object schema; when `outputSchema` is
 * set, successful results must carry `structuredContent` that conforms to it.
 */
export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  icons?: readonly McpIcon[];
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

/**
 * The final result of `tools/call`. Failures the model could fix come back here with
 * `isError: true` rather than as a JSON-RPC error.
 *
 * @publicApi
 */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

/**
 * One named argument a prompt accepts; prompt arguments are always strings.
 */
export interface PromptArgument {
  name: string;
  title?: string;
  description?: string;
  required?: boolean;
}
/**
 * A prompt as listed by `prompts/list`; `arguments` is optional.
 */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  icons?: readonly McpIcon[];
  arguments?: PromptArgument[];
}
/**
 * One message of a rendered prompt, with a single content block.
 *
 * @publicApi
 */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}
/**
 * The final result of `prompts/get`: the prompt rendered into messages.
 *
 * @publicApi
 */
export interface GetPromptResult {
  description?: string;
  messages: PromptMessage[];
  _meta?: Record<string, unknown>;
}

/**
 * A concrete resource as listed by `resources/list`; `size` is in bytes, if known.
 */
export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  icons?: readonly McpIcon[];
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/**
 * A parameterised resource as listed by `resources/templates/list`; `uriTemplate` is an RFC 6570
 * URI template that clients expand and then pass to `resources/read`.
 */
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  icons?: readonly McpIcon[];
  mimeType?: string;
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}
/**
 * The final result of `resources/read`. An unknown URI is a `-32602` error with `data.uri`, never
 * an empty `contents`.
 *
 * @publicApi
 */
export interface ReadResourceResult {
  contents: ResourceContents[];
  _meta?: Record<string, unknown>;
}

/* ---- Multi round-trip requests (SEP-2322) ---- */

/**
 * The schema of one form field in a form-mode elicitation: a string, number, integer, boolean or
 * enum (single-select string or multi-select string array). Nested objects are not allowed.
 *
 * @publicApi
 */
export type PrimitiveSchemaDefinition = Record<string, unknown> & {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
};

/**
 * The form a form-mode elicitation asks the user to fill in: a flat object of primitive properties.
 * Form mode must never ask for secrets such as passwords, tokens or payment data; use URL mode.
 *
 * @publicApi
 */
export interface RequestedSchema {
  $schema?: string;
  type: 'object';
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
}

/**
 * Params of a form-mode `elicitation/create`; a missing `mode` means form. Needs the client's
 * `elicitation` capability.
 *
 * @publicApi
 */
export interface ElicitRequestFormParams {
  mode?: 'form';
  message: string;
  requestedSchema: RequestedSchema;
}
/**
 * Params of a URL-mode `elicitation/create`: the user is sent to `url` for an out-of-band step. Needs
 * `elicitation.url`; 2026-07-28 has no `elicitationId`, so any correlation id goes in requestState.
 *
 * @publicApi
 */
export interface ElicitRequestUrlParams {
  mode: 'url';
  message: string;
  url: string;
}
/**
 * Params of an `elicitation/create` input request, in form or URL mode.
 *
 * @publicApi
 */
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestUrlParams;

/**
 * A value a user may enter in a form field; `string[]` comes only from multi-select enums.
 *
 * @publicApi
 */
export type ElicitContentValue = string | number | boolean | string[];
/**
 * The client's answer to an elicitation. `content` is present only on `accept` in form mode; in URL
 * mode `accept` just means the user agreed to open the URL, not that the step finished.
 *
 * @publicApi
 */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, ElicitContentValue>;
}

/**
 * One message of a sampling conversation (deprecated feature, still allowed in `inputRequests`).
 *
 * @publicApi
 */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
}
/**
 * Params of a `sampling/createMessage` input request, which asks the client's LLM for a completion.
 * Sampling is deprecated but still allowed; `tools`/`toolChoice` need `sampling.tools`, and
 * `includeContext` other than `none` needs `sampling.context`.
 *
 * @publicApi
 */
export interface CreateMessageRequestParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  includeContext?: 'none' | 'thisServer' | 'allServers';
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  tools?: unknown[];
  toolChoice?: unknown;
  metadata?: Record<string, unknown>;
}
/**
 * The client's answer to a sampling input request: the generated message and the model that made it.
 * Like every input response it carries no `resultType`.
 *
 * @publicApi
 */
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  model: string;
  stopReason?: string;
}

/**
 * A filesystem root the client exposes (deprecated roots feature); `uri` is a `file://` URI.
 *
 * @publicApi
 */
export interface Root {
  uri: string;
  name?: string;
}
/**
 * The client's answer to a `roots/list` input request. Roots are deprecated but still allowed.
 *
 * @publicApi
 */
export interface ListRootsResult {
  roots: Root[];
}

/**
 * One entry of `InputRequiredResult.inputRequests`: a bare `{ method, params }` with no `jsonrpc` or
 * `id`. Only these three kinds exist, and each may be sent only if the client declared its capability.
 *
 * @publicApi
 */
export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: Record<string, unknown> };

/**
 * One entry of a retry's `inputResponses`, under the same key as its request: the bare client result
 * (no wrapper, no `resultType`).
 *
 * @publicApi
 */
export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

/**
 * The interim MRTR answer to `tools/call`, `prompts/get` or `resources/read`: it must carry at least one
 * of `inputRequests` and `requestState`, and is never cacheable. The client echoes `requestState`
 * byte for byte on its retry, which is a new request with a new id.
 */
export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: Record<string, unknown>;
}
