import { Logger, type Provider, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AllowAllAccessPolicy } from './calls/allow-all-access-policy.js';
import { McpAccessPolicy } from './calls/mcp-access-policy.js';
import { MCP_MODULE_OPTIONS, MCP_OPTIONS } from './mcp.module-definition.js';
import { type McpModuleOptions, type ResolvedMcpOptions, resolveMcpOptions } from './mcp.options.js';
import {
  INTEGRATION_ACCESS_POLICY,
  INTEGRATION_AUDIT_SINK,
  INTEGRATION_EVENT_BUS,
  INTEGRATION_FLOW_STORE,
  INTEGRATION_IDEMPOTENCY_STORE,
  INTEGRATION_PRINCIPAL_SOURCE,
  INTEGRATION_SESSION_BACKPLANE,
  INTEGRATION_TASK_STORE,
  INTEGRATION_TASK_EXECUTOR,
  INTEGRATION_HTTP_AUTHENTICATOR,
} from './core/mcp.tokens.js';
import { InProcessEventBus } from './events/in-process-event-bus.js';
import { McpEventBus } from './events/mcp-event-bus.js';
import { ServerEventBus } from './events/server-event-bus.js';
import { LocalSessionBackplane } from './legacy/local-session-backplane.js';
import { McpSessionBackplane } from './legacy/mcp-session-backplane.js';
import { McpTaskStore } from './task-store/mcp-task.store.js';
import { InMemoryTaskStore } from './task-store/in-memory-task.store.js';
import { MCP_HTTP_AUTHENTICATOR, type McpHttpAuthenticator } from './transport/http/mcp-http-authenticator.js';
import { InProcessTaskExecutor, McpTaskExecutor } from './tasks/mcp-task-executor.js';
import { LoggerAuditSink, McpAuditSink } from './telemetry/mcp-audit-sink.js';
import { McpFlowStore } from './mrtr/mcp-flow.store.js';
import { InMemoryFlowStore } from './mrtr/in-memory-flow.store.js';
import { McpIdempotencyStore } from './calls/mcp-idempotency.store.js';
import { InMemoryIdempotencyStore } from './calls/in-memory-idempotency.store.js';
import { AesGcmRequestStateCodec } from './mrtr/aes-gcm-request-state-codec.js';
import { McpClock, SystemClock } from './core/mcp-clock.js';
import { AnonymousPrincipalSource, McpPrincipalSource } from './core/mcp-principal-source.js';
import { RequestStateCodec } from './mrtr/request-state-codec.js';
import { AesGcmTokenSealer } from './core/aes-gcm-token-sealer.js';
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

/**
 * The module's option sections and seams: each seam the application's own binding (an option) >
 * an integration module's > the core default, whatever order the modules are imported in.
 */
export const seams: Provider[] = [
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
      new AesGcmRequestStateCodec(
        { ...options.mrtr, maxTokenChars: options.limits.maxRequestStateChars },
        clock,
        new Logger('McpRequestState'),
        sealer,
      ),
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
    McpIdempotencyStore,
    () => undefined,
    INTEGRATION_IDEMPOTENCY_STORE,
    (clock) => new InMemoryIdempotencyStore(clock),
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
    (clock, options) => new InMemoryTaskStore(clock, options.limits.maxTasks),
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
