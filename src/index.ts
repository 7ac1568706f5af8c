// The public API of @mocapi/nestjs: what an application writes against (the module and its options,
// the decorators, what a handler injects or returns, the seams an application may replace) and the
// types those name. What only the server itself or the package's own integrations use (injection
// tokens, registries, resolved options, interceptors, explorers, wire helpers) stays private: the
// integrations import it by relative path. src/public-api.spec.ts lists every runtime export.
// The types only the implementer of a seam or an observer names are members of a type-only
// namespace merged with that seam (`McpTaskStore.TaskRecord`, `McpRequestObserver.Trace`, ...).

// The module and its options.
export { McpModule } from './mcp.module.js';
export type { McpConfigurableModule } from './mcp.module-definition.js';
export { McpServerRef, McpServers } from './mcp-servers.js';
export type {
  McpCacheOptions,
  McpLegacyOptions,
  McpModuleOptions,
  McpMrtrOptions,
  McpTasksOptions,
} from './mcp.options.js';
export type { McpLimitsOptions } from './core/mcp-limits.options.js';
export type { McpServerOptions } from './core/mcp-server.options.js';
export type { McpHttpOptions } from './transport/http/mcp-http.options.js';
export type {
  McpServerCardHeader,
  McpServerCardInput,
  McpServerCardOptions,
  McpServerCardRemote,
  McpServerCardRepository,
} from './transport/http/server-card.options.js';
export type { McpProtocolEra } from './protocol/protocol-era.js';

// Tools, prompts and resources.
export {
  McpTool,
  type McpToolOptions,
  type McpToolUiOptions,
  type McpUiVisibility,
} from './decorators/mcp-tool.decorator.js';
export { McpArgs, McpCtx } from './decorators/mcp-param.decorators.js';
export { McpPrompt, type McpPromptOptions } from './decorators/mcp-prompt.decorator.js';
export { McpResource, type McpResourceOptions } from './decorators/mcp-resource.decorator.js';
export { McpResourceTemplate, type McpResourceTemplateOptions } from './decorators/mcp-resource-template.decorator.js';
export type { McpCompleter, McpCompletionContext } from './decorators/mcp-completer.js';
export { McpProperty, type McpPropertyOptions } from './schema/mcp-property.decorator.js';
export type { StandardSchemaV1 } from './schema/standard-schema.js';
export { McpRegistrar } from './discovery/mcp-registrar.js';
export { McpExecutionContext } from './discovery/mcp-execution-context.js';
export type { McpRequestContext } from './discovery/mcp-request-context.js';
export { clientRendersApps } from './discovery/mcp-apps-support.js';
export { McpProgressReporter } from './calls/mcp-progress-reporter.js';
export { McpClientLogger } from './calls/mcp-client-logger.js';
export { McpCallAbortedError, isCallAborted } from './protocol/mcp-call-aborted.error.js';

// Elicitation, sampling and roots (stateless, by replay).
export { ElicitationContext } from './mrtr/elicitation-context.js';
export {
  InputBatchBuilder,
  PlannedInput,
  type BatchAnswers,
  type ElicitAnswer,
  type UrlElicitAnswer,
  type InputRequestOptions,
} from './mrtr/input-batch-builder.js';
export {
  RequestedSchemaBuilder,
  type ChooseOptions,
  type ChooseManyOptions,
  type ChoiceValues,
} from './schema/requested-schema-builder.js';
export type { ChangedQuestionPolicy } from './mrtr/replay-session.js';
export { InputRequiredException, isInputRequired } from './mrtr/exceptions/input-required.exception.js';
export { McpFlowStore, type FlowClaim } from './mrtr/mcp-flow.store.js';

// Tasks.
export { McpTaskContext } from './tasks/mcp-task-context.js';
export { McpTaskStore } from './task-store/mcp-task.store.js';
export { TaskAbortedError } from './task-store/task-aborted.error.js';
export { McpTaskExecutor } from './tasks/mcp-task-executor.js';
export { McpTaskQuotaExceededException } from './task-store/task-quota-exceeded.exception.js';

// Who calls, and the seams of several nodes.
export { McpPrincipalSource } from './core/mcp-principal-source.js';
export { McpHttpAuthenticator } from './transport/http/mcp-http-authenticator.js';
export { McpHttpChallenge } from './protocol/mcp-http-challenge.js';
export { McpEventBus } from './events/mcp-event-bus.js';
export { McpSessionBackplane } from './legacy/mcp-session-backplane.js';

// Observability.
export { McpAuditSink } from './telemetry/mcp-audit-sink.js';
export type { McpAuditEvent } from './telemetry/mcp-audit-event.js';
export type { McpRequestObserver } from './telemetry/mcp-request-observer.js';
export { McpObserver } from './telemetry/mcp-observer.decorator.js';

// stdio.
export {
  bootstrapStdio,
  McpStdioTransport,
  McpStderrLogger,
  type McpStdioConnection,
  type BootstrapStdioOptions,
  type McpStdioServer,
  type McpStdioStreams,
} from './transport/stdio/index.js';

// The protocol: errors, versions and the shapes of the wire.
export { McpError } from './protocol/mcp.error.js';
export { McpErrorCode } from './protocol/mcp-error-codes.js';
export type { McpExchange, McpTransportInfo } from './protocol/mcp-exchange.js';
export type { McpIcon } from './protocol/icons.js';
export type {
  Annotations,
  AudioContent,
  BlobResourceContents,
  CacheScope,
  CallToolResult,
  ClientCapabilities,
  ContentBlock,
  CreateMessageRequestParams,
  CreateMessageResult,
  ElicitContentValue,
  ElicitRequestFormParams,
  ElicitRequestParams,
  ElicitRequestUrlParams,
  ElicitResult,
  EmbeddedResource,
  GetPromptResult,
  ImageContent,
  Implementation,
  InputRequest,
  InputResponse,
  JsonSchema,
  ListRootsResult,
  LoggingLevel,
  PrimitiveSchemaDefinition,
  PromptMessage,
  ReadResourceResult,
  RequestedSchema,
  ResourceContents,
  ResourceLink,
  Root,
  SamplingMessage,
  TextContent,
  TextResourceContents,
  ToolAnnotations,
} from './protocol/wire-types.js';
