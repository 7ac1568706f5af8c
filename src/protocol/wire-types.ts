/**
 * The parts of the 2026-07-28 schema this module reads or writes. Field names follow
 * `schema/2026-07-28/schema.ts`; only what we use is spelled out.
 */

export interface Implementation {
  name: string;
  version: string;
  title?: string;
  [key: string]: unknown;
}

export interface ClientCapabilities {
  elicitation?: { form?: object; url?: object };
  sampling?: { tools?: object; context?: object };
  roots?: { listChanged?: boolean };
  extensions?: Record<string, unknown>;
  experimental?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean };
  prompts?: { listChanged?: boolean };
  resources?: { subscribe?: boolean; listChanged?: boolean };
  completions?: object;
  logging?: object;
  extensions?: Record<string, unknown>;
  [key: string]: unknown;
}

export type LoggingLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

export type ResultType = 'complete' | 'input_required';
export type CacheScope = 'public' | 'private';

export interface Annotations {
  audience?: Array<'user' | 'assistant'>;
  priority?: number;
  lastModified?: string;
}

export interface TextContent { type: 'text'; text: string; annotations?: Annotations; _meta?: Record<string, unknown> }
export interface ImageContent { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: Record<string, unknown> }
export interface AudioContent { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: Record<string, unknown> }

export interface TextResourceContents { uri: string; mimeType?: string; text: string; _meta?: Record<string, unknown> }
export interface BlobResourceContents { uri: string; mimeType?: string; blob: string; _meta?: Record<string, unknown> }
export type ResourceContents = TextResourceContents | BlobResourceContents;

export interface EmbeddedResource { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: Record<string, unknown> }
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
}

export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export type JsonSchema = Record<string, unknown>;

export interface ToolDefinition {
  name: string;
  title?: string;
  description?: string;
  inputSchema: JsonSchema;
  outputSchema?: JsonSchema;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export interface PromptArgument { name: string; title?: string; description?: string; required?: boolean }
export interface PromptDefinition { name: string; title?: string; description?: string; arguments?: PromptArgument[] }
export interface PromptMessage { role: 'user' | 'assistant'; content: ContentBlock }
export interface GetPromptResult { description?: string; messages: PromptMessage[]; _meta?: Record<string, unknown> }

export interface ResourceDefinition {
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Annotations;
}
export interface ResourceTemplateDefinition {
  uriTemplate: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  annotations?: Annotations;
}
export interface ReadResourceResult { contents: ResourceContents[]; _meta?: Record<string, unknown> }

/* ---- Multi round-trip requests (SEP-2322) ---- */

export type PrimitiveSchemaDefinition = Record<string, unknown> & { type: 'string' | 'number' | 'integer' | 'boolean' | 'array' };

export interface RequestedSchema {
  $schema?: string;
  type: 'object';
  properties: Record<string, PrimitiveSchemaDefinition>;
  required?: string[];
}

export interface ElicitRequestFormParams { mode?: 'form'; message: string; requestedSchema: RequestedSchema }
export interface ElicitRequestUrlParams { mode: 'url'; message: string; url: string }
export type ElicitRequestParams = ElicitRequestFormParams | ElicitRequestUrlParams;

export type ElicitContentValue = string | number | boolean | string[];
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: Record<string, ElicitContentValue>;
}

export interface SamplingMessage { role: 'user' | 'assistant'; content: ContentBlock | ContentBlock[] }
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
export interface CreateMessageResult {
  role: 'user' | 'assistant';
  content: ContentBlock | ContentBlock[];
  model: string;
  stopReason?: string;
}

export interface Root { uri: string; name?: string }
export interface ListRootsResult { roots: Root[] }

export type InputRequest =
  | { method: 'elicitation/create'; params: ElicitRequestParams }
  | { method: 'sampling/createMessage'; params: CreateMessageRequestParams }
  | { method: 'roots/list'; params?: Record<string, unknown> };

export type InputResponse = ElicitResult | CreateMessageResult | ListRootsResult;

export interface InputRequiredResult {
  resultType: 'input_required';
  inputRequests?: Record<string, InputRequest>;
  requestState?: string;
  _meta?: Record<string, unknown>;
}
