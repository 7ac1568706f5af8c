import { Module, type Provider } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { McpDispatcher } from './dispatch/mcp-dispatcher.js';
import { McpRequestPipeline } from './dispatch/mcp-request-pipeline.js';
import { MCP_METHOD_GROUPS, type McpMethodGroup } from './calls/method-handler.js';
import { DiscoverMethods } from './methods/discover.methods.js';
import { CompletionMethods } from './methods/completion.methods.js';
import { PromptsMethods } from './methods/prompts.methods.js';
import { ResourcesMethods } from './methods/resources.methods.js';
import { SubscriptionsMethods } from './methods/subscriptions.methods.js';
import { ToolsMethods } from './methods/tools.methods.js';
import { McpClientLogger } from './calls/mcp-client-logger.js';
import { McpProgressReporter } from './calls/mcp-progress-reporter.js';
import { MrtrCallRunner } from './calls/mrtr-call-runner.js';
import { McpPromptFactory } from './discovery/mcp-prompt.factory.js';
import { McpPromptRegistry } from './discovery/mcp-prompt.registry.js';
import { McpRegistrar } from './discovery/mcp-registrar.js';
import { McpResourceFactory } from './discovery/mcp-resource.factory.js';
import { McpResourceRegistry } from './discovery/mcp-resource.registry.js';
import { ListPager } from './calls/list-pager.js';
import { ResultStamp } from './calls/result-stamp.js';
import { McpExplorer } from './discovery/mcp-explorer.js';
import { McpHandlerFactory } from './discovery/mcp-handler.factory.js';
import { McpToolFactory } from './discovery/mcp-tool.factory.js';
import { McpToolRegistry } from './discovery/mcp-tool.registry.js';
import { McpServerExtensions } from './discovery/mcp-server-extensions.js';
import { MCP_OPTIONS, MCP_SERVER_IS_GLOBAL, McpConfigurableModule } from './mcp.module-definition.js';
import { McpServerRef, McpServers } from './mcp-servers.js';
import { type ResolvedMcpOptions } from './mcp.options.js';
import { INTEGRATION_METHOD_GROUP } from './core/mcp.tokens.js';
import { ListChangeRelay } from './discovery/list-change-relay.js';
import { McpEventBus } from './events/mcp-event-bus.js';
import { McpSessionBackplane } from './legacy/mcp-session-backplane.js';
import { McpTaskStore } from './task-store/mcp-task.store.js';
import { McpTaskRunner } from './tasks/mcp-task-runner.js';
import { McpTaskExecutor } from './tasks/mcp-task-executor.js';
import { McpTaskEvents } from './tasks/mcp-task-events.js';
import { McpTaskContext } from './tasks/mcp-task-context.js';
import { TasksMethods } from './methods/tasks.methods.js';
import { TaskStatusSubscriptions } from './tasks/task-status-subscriptions.js';
import { McpAuditSink } from './telemetry/mcp-audit-sink.js';
import { McpTelemetry } from './telemetry/mcp-telemetry.js';
import { McpFlowStore } from './mrtr/mcp-flow.store.js';
import { ExactlyOnceCompletion } from './calls/exactly-once-completion.js';
import { IdempotentToolCall } from './calls/idempotent-tool-call.js';
import { ElicitationContext } from './mrtr/elicitation-context.js';
import { McpPrincipalSource } from './core/mcp-principal-source.js';
import { MrtrEngine } from './mrtr/mrtr-engine.js';
import { McpHttpHandler } from './transport/http/mcp-http-handler.js';
import { LegacyHttpEndpoint } from './transport/http/legacy-http-endpoint.js';
import { InputPushShim } from './legacy/input-push-shim.js';
import { LegacyDispatcher } from './legacy/legacy-dispatcher.js';
import { McpEraRouter } from './dispatch/mcp-era-router.js';
import { LegacySessionCodec } from './legacy/legacy-session-codec.js';
import { LegacySessions } from './legacy/legacy-sessions.js';
import { McpHttpTransport } from './transport/http/mcp-http-transport.js';
import { MCP_SERVER_CARD } from './transport/http/server-card-endpoint.js';
import { McpStdioTransport } from './transport/stdio/mcp-stdio-transport.js';
import { seams } from './mcp-seams.providers.js';

const groups = [ToolsMethods, PromptsMethods, ResourcesMethods, CompletionMethods, SubscriptionsMethods, TasksMethods];
const methodGroups: Provider[] = [
  ...groups,
  // An integration's group (e.g. skills/*) joins the core's, for both eras, on the server it is
  // for: the one at its `server` path, else the global server.
  {
    provide: MCP_METHOD_GROUPS,
    useFactory: (options: ResolvedMcpOptions, isGlobal: boolean | undefined, ...all: unknown[]) => {
      const integration = all.pop() as McpMethodGroup | undefined;
      const attached =
        integration && (integration.server === undefined ? isGlobal === true : integration.server === options.path);
      return attached ? [...all, integration] : all;
    },
    inject: [
      MCP_OPTIONS,
      { token: MCP_SERVER_IS_GLOBAL, optional: true },
      ...groups,
      { token: INTEGRATION_METHOD_GROUP, optional: true },
    ],
  },
  DiscoverMethods,
];

/**
 * The MCP server module: discovers `@McpTool`, `@McpPrompt`, `@McpResource` and
 * `@McpResourceTemplate` methods, serves them over Streamable HTTP on the application's Express or
 * Fastify adapter (or stdio), and provides {@link ElicitationContext} and friends.
 *
 * ```ts
 * McpModule.forRoot({ name: 'orders', version: '1.0.0', mrtr: { secrets: [process.env.MCP_STATE_SECRET!] } })
 * ```
 *
 * @publicApi
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    ...seams,
    ...methodGroups,
    ResultStamp,
    ListPager,
    MrtrEngine,
    MrtrCallRunner,
    McpTelemetry,
    ExactlyOnceCompletion,
    IdempotentToolCall,
    ElicitationContext,
    McpTaskRunner,
    McpTaskEvents,
    McpTaskContext,
    TaskStatusSubscriptions,
    McpProgressReporter,
    McpClientLogger,
    McpToolRegistry,
    McpPromptRegistry,
    McpResourceRegistry,
    McpServerExtensions,
    ListChangeRelay,
    McpRegistrar,
    McpHandlerFactory,
    McpToolFactory,
    McpPromptFactory,
    McpResourceFactory,
    McpExplorer,
    McpRequestPipeline,
    McpDispatcher,
    McpHttpHandler,
    { provide: MCP_SERVER_CARD, useFactory: (o: ResolvedMcpOptions) => o.card ?? null, inject: [MCP_OPTIONS] },
    McpHttpTransport,
    LegacySessionCodec,
    LegacySessions,
    InputPushShim,
    LegacyDispatcher,
    McpEraRouter,
    LegacyHttpEndpoint,
    McpStdioTransport,
    McpServerRef,
    McpServers,
  ],
  exports: [
    McpServers,
    MCP_OPTIONS,
    ElicitationContext,
    McpProgressReporter,
    McpClientLogger,
    McpRegistrar,
    McpToolRegistry,
    McpPromptRegistry,
    McpResourceRegistry,
    McpServerExtensions,
    McpPrincipalSource,
    McpFlowStore,
    McpTaskStore,
    McpTaskExecutor,
    McpTaskRunner,
    McpTaskContext,
    McpAuditSink,
    McpEventBus,
    McpSessionBackplane,
    McpStdioTransport,
  ],
})
export class McpModule extends McpConfigurableModule {}
