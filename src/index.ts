// The public API of @mocapi/nestjs. Explorers, registries' internals and wire helpers stay private.
export { McpModule } from './mcp.module.js';
export { McpServerRef, McpServers } from './mcp-servers.js';
export { MCP_OPTIONS } from './mcp.module-definition.js';
export { McpOptionsError } from './core/mcp-options.error.js';
export {
  type McpCacheOptions,
  type McpLegacyOptions,
  type McpModuleOptions,
  type McpMrtrOptions,
  type McpTasksOptions,
  type ResolvedMcpOptions,
} from './mcp.options.js';
export type { McpLimitsOptions } from './core/mcp-limits.options.js';
export type { McpServerOptions } from './core/mcp-server.options.js';
export type { McpHttpOptions } from './transport/http/mcp-http.options.js';
export type { McpProtocolEra } from './protocol/protocol-era.js';
export {
  INTEGRATION_ACCESS_POLICY,
  INTEGRATION_AUDIT_SINK,
  INTEGRATION_EVENT_BUS,
  INTEGRATION_FLOW_STORE,
  INTEGRATION_HTTP_AUTHENTICATOR,
  INTEGRATION_PRINCIPAL_SOURCE,
  INTEGRATION_REQUEST_OBSERVER,
  INTEGRATION_SESSION_BACKPLANE,
  INTEGRATION_TASK_STORE,
  INTEGRATION_TASK_EXECUTOR,
} from './core/mcp.tokens.js';

export { McpTool, type McpToolOptions } from './decorators/mcp-tool.decorator.js';
export { McpArgs, McpCtx } from './decorators/mcp-param.decorators.js';
export { McpPrompt, type McpPromptOptions } from './decorators/mcp-prompt.decorator.js';
export { McpResource, type McpResourceOptions } from './decorators/mcp-resource.decorator.js';
export { McpResourceTemplate, type McpResourceTemplateOptions } from './decorators/mcp-resource-template.decorator.js';
export type { McpCompleter, McpCompletionContext } from './decorators/mcp-completer.js';
export { McpProperty, type McpPropertyOptions } from './schema/mcp-property.decorator.js';
export {
  RequestedSchemaBuilder,
  type ChooseOptions,
  type ChooseManyOptions,
  type ChoiceValues,
} from './schema/requested-schema.builder.js';
export { dtoToJsonSchema } from './schema/dto-json-schema.js';
export { DtoDefinitionError } from './schema/dto-definition.error.js';
export type {
  StandardSchemaV1,
  StandardSchemaV1Props,
  StandardSchemaV1Result,
  StandardSchemaV1Issue,
  StandardJSONSchemaV1Converter,
  StandardJSONSchemaV1Options,
} from './schema/standard-schema.js';
export {
  INTEGRATION_REDIS_HEALTH_PROBE,
  INTEGRATION_TASK_QUEUE_HEALTH_PROBE,
  type McpHealthProbe,
  type McpHealthProbeResult,
} from './core/mcp-health.probe.js';

export { McpExecutionContext } from './discovery/mcp-execution-context.js';
export type { McpRequestContext } from './discovery/mcp-request-context.js';
export { McpToolRegistry } from './discovery/mcp-tool.registry.js';
export { McpPromptRegistry } from './discovery/mcp-prompt.registry.js';
export { McpResourceRegistry } from './discovery/mcp-resource.registry.js';
export type { McpRegistry } from './discovery/mcp-registry.js';
export { McpServerExtensions } from './discovery/mcp-server-extensions.js';
export type { McpToolUiOptions, McpUiVisibility } from './decorators/mcp-tool.decorator.js';
export { MCP_APP_MIME_TYPE, MCP_UI_EXTENSION, clientRendersApps } from './discovery/mcp-apps.support.js';
export { McpRegistrar } from './discovery/mcp-registrar.js';
export { McpResourceUpdates } from './discovery/mcp-resource-updates.js';
export { McpEventBus, type McpEvent, type McpEventListener } from './events/mcp-event-bus.js';
export { InProcessEventBus } from './events/in-process-event-bus.js';
export {
  McpSessionBackplane,
  type SessionBackplaneHandlers,
  type SharedSessionState,
} from './legacy/mcp-session.backplane.js';
export { LocalSessionBackplane } from './legacy/local-session.backplane.js';
export { McpProgressReporter } from './calls/mcp-progress.reporter.js';
export { McpClientLogger } from './calls/mcp-client.logger.js';
export { McpAccessPolicy, type McpAccessTarget } from './calls/mcp-access-policy.js';

export { ElicitationContext } from './mrtr/elicitation.context.js';
export {
  InputBatchBuilder,
  PlannedInput,
  type BatchAnswers,
  type ElicitAnswer,
  type UrlElicitAnswer,
  type InputRequestOptions,
} from './mrtr/input-batch.builder.js';
export type { ChangedQuestionPolicy } from './mrtr/replay-session.js';
export { McpFlowStore, type FlowClaim } from './mrtr/mcp-flow.store.js';
export { InMemoryFlowStore } from './mrtr/in-memory-flow.store.js';
export { McpTaskContext } from './tasks/mcp-task.context.js';
export { McpTaskStore } from './task-store/mcp-task.store.js';
export { TaskAbortedError } from './task-store/task-aborted.error.js';
export { McpCallAbortedError, isCallAborted, type McpCallAbortReason } from './protocol/mcp-call-aborted.error.js';
export { InMemoryTaskStore } from './task-store/in-memory-task.store.js';
export { McpTaskExecutor, InProcessTaskExecutor } from './tasks/mcp-task.executor.js';
export type { McpTaskError, McpTaskRecord, McpTaskStatus } from './task-store/mcp-task.record.js';
export { TASKS_EXTENSION, type McpTaskCreation, type McpTaskSupport } from './protocol/task-support.js';
export { McpTaskQuotaExceededException, type McpTaskQuotaLimit } from './task-store/task-quota-exceeded.exception.js';
export type { McpTaskCallerCount, McpTaskQuota } from './task-store/mcp-task.quota.js';
export { McpPrincipalSource, AnonymousPrincipalSource, type McpPrincipalRequest } from './core/mcp-principal.source.js';
export * from './mrtr/exceptions/index.js';
export { InputRequiredInterceptor } from './mrtr/input-required.interceptor.js';

export { McpAuditSink } from './telemetry/mcp-audit.sink.js';
export type { McpAuditEvent } from './telemetry/mcp-audit-event.js';
export type { McpRequestObserver } from './telemetry/mcp-request-observer.js';
export { McpObserver } from './telemetry/mcp-observer.decorator.js';
export type { McpSessionEnd } from './telemetry/mcp-session-end.js';
export type { McpRequestOutcome, McpRequestTrace } from './telemetry/mcp-request-trace.js';

export { McpHttpAuthenticator } from './transport/http/mcp-http-authenticator.js';
export {
  bootstrapStdio,
  McpStdioTransport,
  McpStderrLogger,
  type McpStdioConnection,
  type BootstrapStdioOptions,
  type McpStdioServer,
  type McpStdioStreams,
} from './transport/stdio/index.js';

export { McpError } from './protocol/mcp.error.js';
export { McpErrorCode } from './protocol/mcp-error-codes.js';
export { McpHttpChallenge } from './protocol/mcp-http-challenge.js';
export {
  LEGACY_PROTOCOL_VERSIONS,
  PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol/protocol-version.js';
export type { McpExchange, McpTransportInfo } from './protocol/mcp-exchange.js';
export type * from './protocol/wire-types.js';
