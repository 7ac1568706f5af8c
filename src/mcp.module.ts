import { Logger, Module, type Provider } from '@nestjs/common';
import { DiscoveryModule, ModuleRef } from '@nestjs/core';
import { AllowAllAccessPolicy } from './dispatch/allow-all.access-policy.js';
import { McpAccessPolicy } from './dispatch/mcp-access-policy.js';
import { McpDispatcher } from './dispatch/mcp.dispatcher.js';
import { MCP_METHOD_GROUPS } from './dispatch/method-handler.js';
import { DiscoverMethods } from './dispatch/methods/discover.methods.js';
import { CompletionMethods } from './dispatch/methods/completion.methods.js';
import { PromptsMethods } from './dispatch/methods/prompts.methods.js';
import { ResourcesMethods } from './dispatch/methods/resources.methods.js';
import { SubscriptionsMethods } from './dispatch/methods/subscriptions.methods.js';
import { ToolsMethods } from './dispatch/methods/tools.methods.js';
import { McpClientLogger } from './dispatch/mcp-client.logger.js';
import { McpProgressReporter } from './dispatch/mcp-progress.reporter.js';
import { MrtrCallRunner } from './dispatch/mrtr-call.runner.js';
import { McpPromptFactory } from './discovery/mcp-prompt.factory.js';
import { McpPromptRegistry } from './discovery/mcp-prompt.registry.js';
import { McpRegistrar } from './discovery/mcp-registrar.js';
import { McpResourceFactory } from './discovery/mcp-resource.factory.js';
import { McpResourceRegistry } from './discovery/mcp-resource.registry.js';
import { McpResourceUpdates } from './discovery/mcp-resource-updates.js';
import { ListPager } from './dispatch/list-pager.js';
import { ResultStamp } from './dispatch/result-stamp.js';
import { McpExplorer } from './discovery/mcp.explorer.js';
import { McpHandlerFactory } from './discovery/mcp-handler.factory.js';
import { McpToolFactory } from './discovery/mcp-tool.factory.js';
import { McpToolRegistry } from './discovery/mcp-tool.registry.js';
import { MCP_MODULE_OPTIONS, MCP_OPTIONS, McpConfigurableModule } from './mcp.module-definition.js';
import { type McpModuleOptions, type ResolvedMcpOptions, resolveMcpOptions } from './mcp.options.js';
import {
  INTEGRATION_ACCESS_POLICY,
  INTEGRATION_AUDIT_SINK,
  INTEGRATION_FLOW_STORE,
  INTEGRATION_PRINCIPAL_SOURCE,
} from './mcp.tokens.js';
import { LoggerAuditSink, McpAuditSink } from './telemetry/mcp-audit.sink.js';
import { McpTelemetry } from './telemetry/mcp-telemetry.js';
import { McpFlowStore } from './mrtr/mcp-flow.store.js';
import { InMemoryFlowStore } from './mrtr/in-memory-flow.store.js';
import { ExactlyOnceCompletion } from './dispatch/exactly-once.completion.js';
import { AesGcmRequestStateCodec } from './mrtr/aes-gcm-request-state.codec.js';
import { ElicitationContext } from './mrtr/elicitation.context.js';
import { McpClock, SystemClock } from './mrtr/mcp-clock.js';
import { AnonymousPrincipalSource, McpPrincipalSource } from './mrtr/mcp-principal.source.js';
import { MrtrEngine } from './mrtr/mrtr.engine.js';
import { RequestStateCodec } from './mrtr/request-state.codec.js';
import { McpHttpHandler } from './transport/http/mcp-http.handler.js';
import { LegacyHttpEndpoint } from './transport/http/legacy-http.endpoint.js';
import { AesGcmTokenSealer } from './mrtr/aes-gcm-token.sealer.js';
import { InputPushShim } from './legacy/input-push.shim.js';
import { LegacyDispatcher } from './legacy/legacy.dispatcher.js';
import { LegacyRefusal } from './legacy/legacy-refusal.js';
import { LegacySessionCodec } from './legacy/legacy-session.codec.js';
import { LegacySessions } from './legacy/legacy-sessions.js';
import { McpHttpTransport } from './transport/http/mcp-http.transport.js';

const seams: Provider[] = [
  { provide: MCP_OPTIONS, useFactory: (raw: McpModuleOptions) => resolveMcpOptions(raw), inject: [MCP_MODULE_OPTIONS] },
  { provide: McpClock, useClass: SystemClock },
  {
    provide: AesGcmTokenSealer,
    useFactory: (options: ResolvedMcpOptions) =>
      new AesGcmTokenSealer(options.mrtr.secrets, new Logger('McpRequestState')),
    inject: [MCP_OPTIONS],
  },
  {
    provide: RequestStateCodec,
    useFactory: (options: ResolvedMcpOptions, clock: McpClock, sealer: AesGcmTokenSealer) =>
      new AesGcmRequestStateCodec(options.mrtr, clock, new Logger('McpRequestState'), sealer),
    inject: [MCP_OPTIONS, McpClock, AesGcmTokenSealer],
  },
  {
    // The application's own source > an integration module's > the anonymous default,
    // whatever order the modules are imported in.
    provide: McpPrincipalSource,
    useFactory: async (options: ResolvedMcpOptions, moduleRef: ModuleRef, integration?: McpPrincipalSource) => {
      const own = options.principalSource;
      if (own) return typeof own === 'function' ? moduleRef.create(own) : own;
      return integration ?? new AnonymousPrincipalSource();
    },
    inject: [MCP_OPTIONS, ModuleRef, { token: INTEGRATION_PRINCIPAL_SOURCE, optional: true }],
  },
  {
    // Same precedence as the principal source: the application's > an integration's > in memory.
    provide: McpFlowStore,
    useFactory: async (
      options: ResolvedMcpOptions,
      moduleRef: ModuleRef,
      clock: McpClock,
      integration?: McpFlowStore,
    ) => {
      const own = options.flowStore;
      if (own) return typeof own === 'function' ? moduleRef.create(own) : own;
      return integration ?? new InMemoryFlowStore(clock);
    },
    inject: [MCP_OPTIONS, ModuleRef, McpClock, { token: INTEGRATION_FLOW_STORE, optional: true }],
  },
  {
    // Same precedence again: the application's > an integration's > a debug log line.
    provide: McpAuditSink,
    useFactory: async (options: ResolvedMcpOptions, moduleRef: ModuleRef, integration?: McpAuditSink) => {
      const own = options.auditSink;
      if (own) return typeof own === 'function' ? moduleRef.create(own) : own;
      return integration ?? new LoggerAuditSink();
    },
    inject: [MCP_OPTIONS, ModuleRef, { token: INTEGRATION_AUDIT_SINK, optional: true }],
  },
  {
    provide: McpAccessPolicy,
    useFactory: (integration?: McpAccessPolicy) => integration ?? new AllowAllAccessPolicy(),
    inject: [{ token: INTEGRATION_ACCESS_POLICY, optional: true }],
  },
];

const groups = [ToolsMethods, PromptsMethods, ResourcesMethods, CompletionMethods, SubscriptionsMethods];
const methodGroups: Provider[] = [
  ...groups,
  { provide: MCP_METHOD_GROUPS, useFactory: (...all: unknown[]) => all, inject: groups },
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
    McpProgressReporter,
    McpClientLogger,
    McpToolRegistry,
    McpPromptRegistry,
    McpResourceRegistry,
    McpResourceUpdates,
    McpRegistrar,
    McpHandlerFactory,
    McpToolFactory,
    McpPromptFactory,
    McpResourceFactory,
    McpExplorer,
    McpDispatcher,
    McpHttpHandler,
    McpHttpTransport,
    LegacySessionCodec,
    LegacySessions,
    InputPushShim,
    LegacyDispatcher,
    LegacyRefusal,
    LegacyHttpEndpoint,
  ],
  exports: [
    MCP_OPTIONS,
    ElicitationContext,
    McpProgressReporter,
    McpClientLogger,
    McpRegistrar,
    McpToolRegistry,
    McpPromptRegistry,
    McpResourceRegistry,
    McpPrincipalSource,
    McpDispatcher,
    LegacyDispatcher,
    LegacySessions,
    RequestStateCodec,
    McpClock,
    McpFlowStore,
    McpAuditSink,
  ],
})
export class McpModule extends McpConfigurableModule {}
