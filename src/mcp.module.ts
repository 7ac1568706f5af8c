import { Logger, Module, type Provider, type Type } from '@nestjs/common';
import { DiscoveryModule, ModuleRef } from '@nestjs/core';
import { AllowAllAccessPolicy } from './calls/allow-all.access-policy.js';
import { McpAccessPolicy } from './calls/mcp-access-policy.js';
import { McpDispatcher } from './dispatch/mcp.dispatcher.js';
import { McpRequestPipeline } from './dispatch/mcp-request.pipeline.js';
import { MCP_METHOD_GROUPS, type McpMethodGroup } from './calls/method-handler.js';
import { DiscoverMethods } from './methods/discover.methods.js';
import { CompletionMethods } from './methods/completion.methods.js';
import { PromptsMethods } from './methods/prompts.methods.js';
import { ResourcesMethods } from './methods/resources.methods.js';
import { SubscriptionsMethods } from './methods/subscriptions.methods.js';
import { ToolsMethods } from './methods/tools.methods.js';
import { McpClientLogger } from './calls/mcp-client.logger.js';
import { McpProgressReporter } from './calls/mcp-progress.reporter.js';
import { MrtrCallRunner } from './calls/mrtr-call.runner.js';
import { McpPromptFactory } from './discovery/mcp-prompt.factory.js';
import { McpPromptRegistry } from './discovery/mcp-prompt.registry.js';
import { McpRegistrar } from './discovery/mcp-registrar.js';
import { McpResourceFactory } from './discovery/mcp-resource.factory.js';
import { McpResourceRegistry } from './discovery/mcp-resource.registry.js';
import { McpResourceUpdates } from './discovery/mcp-resource-updates.js';
import { ListPager } from './calls/list-pager.js';
import { ResultStamp } from './calls/result-stamp.js';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpHandlerFactory } from './discovery/mcp-handler.factory.js';
import { McpToolFactory } from './discovery/mcp-tool.factory.js';
import { McpToolRegistry } from './discovery/mcp-tool.registry.js';
import { McpServerExtensions } from './discovery/mcp-server-extensions.js';
import {
  MCP_MODULE_OPTIONS,
  MCP_OPTIONS,
  MCP_SERVER_IS_GLOBAL,
  McpConfigurableModule,
} from './mcp.module-definition.js';
import { McpServerRef, McpServers } from './mcp-servers.js';
import { type McpModuleOptions, type ResolvedMcpOptions, resolveMcpOptions } from './mcp.options.js';
import {
  INTEGRATION_ACCESS_POLICY,
  INTEGRATION_AUDIT_SINK,
  INTEGRATION_EVENT_BUS,
  INTEGRATION_FLOW_STORE,
  INTEGRATION_METHOD_GROUP,
  INTEGRATION_PRINCIPAL_SOURCE,
  INTEGRATION_SESSION_BACKPLANE,
  INTEGRATION_TASK_STORE,
  INTEGRATION_TASK_EXECUTOR,
  INTEGRATION_HTTP_AUTHENTICATOR,
} from './core/mcp.tokens.js';
import { InProcessEventBus } from './events/in-process-event-bus.js';
import { ListChangeRelay } from './discovery/list-change.relay.js';
import { McpEventBus } from './events/mcp-event-bus.js';
import { ServerEventBus } from './events/server-event.bus.js';
import { LocalSessionBackplane } from './legacy/local-session.backplane.js';
import { McpSessionBackplane } from './legacy/mcp-session.backplane.js';
import { McpTaskStore } from './task-store/mcp-task.store.js';
import { InMemoryTaskStore } from './task-store/in-memory-task.store.js';
import { McpTaskRunner } from './tasks/mcp-task.runner.js';
import { MCP_HTTP_AUTHENTICATOR, type McpHttpAuthenticator } from './transport/http/mcp-http-authenticator.js';
import { InProcessTaskExecutor, McpTaskExecutor } from './tasks/mcp-task.executor.js';
import { McpTaskEvents } from './tasks/mcp-task.events.js';
import { McpTaskContext } from './tasks/mcp-task.context.js';
import { TasksMethods } from './methods/tasks.methods.js';
import { TaskStatusSubscriptions } from './tasks/task-status.subscriptions.js';
import { LoggerAuditSink, McpAuditSink } from './telemetry/mcp-audit.sink.js';
import { McpTelemetry } from './telemetry/mcp-telemetry.js';
import { McpFlowStore } from './mrtr/mcp-flow.store.js';
import { InMemoryFlowStore } from './mrtr/in-memory-flow.store.js';
import { ExactlyOnceCompletion } from './calls/exactly-once.completion.js';
import { AesGcmRequestStateCodec } from './mrtr/aes-gcm-request-state.codec.js';
import { ElicitationContext } from './mrtr/elicitation.context.js';
import { McpClock, SystemClock } from './core/mcp-clock.js';
import { AnonymousPrincipalSource, McpPrincipalSource } from './core/mcp-principal.source.js';
import { MrtrEngine } from './mrtr/mrtr.engine.js';
import { RequestStateCodec } from './mrtr/request-state.codec.js';
import { McpHttpHandler } from './transport/http/mcp-http.handler.js';
import { LegacyHttpEndpoint } from './transport/http/legacy-http.endpoint.js';
import { AesGcmTokenSealer } from './core/aes-gcm-token.sealer.js';
import { InputPushShim } from './legacy/input-push.shim.js';
import { LegacyDispatcher } from './legacy/legacy.dispatcher.js';
import { McpEraRouter } from './dispatch/mcp-era.router.js';
import { LegacySessionCodec } from './legacy/legacy-session.codec.js';
import { LegacySessions } from './legacy/legacy-sessions.js';
import { McpHttpTransport } from './transport/http/mcp-http.transport.js';
import { McpStdioTransport } from './transport/stdio/mcp-stdio.transport.js';
import { MCP_SERVER_OPTIONS } from './core/mcp-server.options.js';
import { MCP_LIMITS } from './core/mcp-limits.options.js';
import { MCP_MRTR_OPTIONS } from './mrtr/mcp-mrtr.options.js';
import { MCP_TASKS_OPTIONS } from './task-store/mcp-tasks.options.js';
import { MCP_LEGACY_OPTIONS } from './legacy/mcp-legacy.options.js';
import { MCP_HTTP_OPTIONS } from './transport/http/mcp-http.options.js';

/** The options resolved once, then one provider per section: each provider injects the section it reads. */
const optionSections: Provider[] = [
  { provide: MCP_OPTIONS, useFactory: (raw: McpModuleOptions) => resolveMcpOptions(raw), inject: [MCP_MODULE_OPTIONS] },
  // The server and HTTP sections are the top level of the options: the resolved object itself.
  { provide: MCP_SERVER_OPTIONS, useExisting: MCP_OPTIONS },
  { provide: MCP_HTTP_OPTIONS, useExisting: MCP_OPTIONS },
  { provide: MCP_MRTR_OPTIONS, useFactory: (o: ResolvedMcpOptions) => o.mrtr, inject: [MCP_OPTIONS] },
  { provide: MCP_TASKS_OPTIONS, useFactory: (o: ResolvedMcpOptions) => o.tasks, inject: [MCP_OPTIONS] },
  { provide: MCP_LEGACY_OPTIONS, useFactory: (o: ResolvedMcpOptions) => o.legacy, inject: [MCP_OPTIONS] },
  { provide: MCP_LIMITS, useFactory: (o: ResolvedMcpOptions) => o.limits, inject: [MCP_OPTIONS] },
];

/**
 * A seam's provider: the application's own instance or class (`own` reads it from the options) wins
 * over an integration module's binding of `integration`, which wins over `fallback`. `shared`, when
 * given, adapts the first two (which every server of the application may share) to this server.
 */
function layered<T>(
  provide: abstract new (...args: never[]) => T,
  own: (options: ResolvedMcpOptions) => Type<T> | T | undefined,
  integration: symbol,
  fallback: (clock: McpClock, options: ResolvedMcpOptions) => T,
  shared: (bound: T, options: ResolvedMcpOptions) => T = (bound) => bound,
): Provider {
  return {
    provide,
    useFactory: async (options: ResolvedMcpOptions, moduleRef: ModuleRef, clock: McpClock, bound?: T) => {
      const mine = own(options);
      if (mine) return shared(typeof mine === 'function' ? await moduleRef.create(mine as Type<T>) : mine, options);
      return bound ? shared(bound, options) : fallback(clock, options);
    },
    inject: [MCP_OPTIONS, ModuleRef, McpClock, { token: integration, optional: true }],
  };
}

const seams: Provider[] = [
  ...optionSections,
  { provide: McpClock, useClass: SystemClock },
  {
    provide: AesGcmTokenSealer,
    useFactory: (options: ResolvedMcpOptions) =>
      // A server that serves only some modules (one of several) seals for its own path.
      new AesGcmTokenSealer(
        options.mrtr.secrets,
        new Logger('McpRequestState'),
        options.include ? `server:${options.path}` : undefined,
      ),
    inject: [MCP_OPTIONS],
  },
  {
    provide: RequestStateCodec,
    useFactory: (options: ResolvedMcpOptions, clock: McpClock, sealer: AesGcmTokenSealer) =>
      new AesGcmRequestStateCodec(options.mrtr, clock, new Logger('McpRequestState'), sealer),
    inject: [MCP_OPTIONS, McpClock, AesGcmTokenSealer],
  },
  // Each seam: the application's own binding (an option) > an integration module's > the core
  // default, whatever order the modules are imported in.
  layered(
    McpPrincipalSource,
    (o) => o.principalSource,
    INTEGRATION_PRINCIPAL_SOURCE,
    () => new AnonymousPrincipalSource(),
  ),
  layered(
    McpFlowStore,
    (o) => o.flowStore,
    INTEGRATION_FLOW_STORE,
    (clock) => new InMemoryFlowStore(clock),
  ),
  layered(
    McpAuditSink,
    (o) => o.auditSink,
    INTEGRATION_AUDIT_SINK,
    () => new LoggerAuditSink(),
  ),
  layered(
    McpEventBus,
    (o) => o.eventBus,
    INTEGRATION_EVENT_BUS,
    () => new InProcessEventBus(),
    // Each server hears only its own lists, resources and tasks.
    (bus, options) => new ServerEventBus(bus, options.path),
  ),
  layered(
    McpSessionBackplane,
    (o) => o.sessionBackplane,
    INTEGRATION_SESSION_BACKPLANE,
    () => new LocalSessionBackplane(),
  ),
  layered(
    McpTaskStore,
    (o) => o.taskStore,
    INTEGRATION_TASK_STORE,
    (clock, options) => new InMemoryTaskStore(clock, options.tasks.maxTasks),
  ),
  layered(
    McpTaskExecutor,
    (o) => o.taskExecutor,
    INTEGRATION_TASK_EXECUTOR,
    () => new InProcessTaskExecutor(),
  ),
  {
    // The server's own authenticator, `false` for none, else the integration's (or none).
    provide: MCP_HTTP_AUTHENTICATOR,
    useFactory: (options: ResolvedMcpOptions, moduleRef: ModuleRef, integration?: McpHttpAuthenticator) => {
      const own = options.httpAuthenticator;
      if (own === false) return null;
      if (own) return typeof own === 'function' ? moduleRef.create(own) : own;
      return integration ?? null;
    },
    inject: [MCP_OPTIONS, ModuleRef, { token: INTEGRATION_HTTP_AUTHENTICATOR, optional: true }],
  },
  {
    provide: McpAccessPolicy,
    useFactory: (integration?: McpAccessPolicy) => integration ?? new AllowAllAccessPolicy(),
    inject: [{ token: INTEGRATION_ACCESS_POLICY, optional: true }],
  },
];

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
    McpResourceUpdates,
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
