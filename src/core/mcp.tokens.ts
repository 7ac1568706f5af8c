// Slots through which integration modules (such as `@mocapi/nestjs/oauth2`) contribute
// implementations from a `@Global()` module. Each slot beats the core default whatever the module
// import order; for the principal source, the application's own `principalSource` option beats both.

/**
 * Integration slot for the `McpPrincipalSource` that names the caller, to which requestState is bound.
 * An application's own `principalSource` option wins; with neither, every caller is anonymous.
 */
export const INTEGRATION_PRINCIPAL_SOURCE = Symbol.for('mocapi:integration-principal-source');
/**
 * Integration slot for the `McpAccessPolicy` that decides which tools, prompts and resources a caller
 * may see and use. Without one, the core allows everything.
 */
export const INTEGRATION_ACCESS_POLICY = Symbol.for('mocapi:integration-access-policy');
/**
 * Integration slot for the `McpHttpAuthenticator` that checks each Streamable HTTP POST (e.g. an OAuth
 * bearer token) before dispatch. Without one, HTTP requests are not authenticated; stdio never uses it.
 */
export const INTEGRATION_HTTP_AUTHENTICATOR = Symbol.for('mocapi:integration-http-authenticator');
/**
 * Integration slot for the `McpFlowStore` that records exactly-once completions (e.g. a shared
 * Redis store for several nodes). An application's own `flowStore` option wins; with neither, the
 * in-memory store is used.
 */
export const INTEGRATION_FLOW_STORE = Symbol.for('mocapi:integration-flow-store');
/**
 * Integration slot for the `McpIdempotencyStore` that keeps the keys of idempotent `tools/call`s
 * (SEP-3182; e.g. a shared Redis store, so a retry on any node gets the first call's answer). With
 * none, the in-memory store is used.
 */
export const INTEGRATION_IDEMPOTENCY_STORE = Symbol.for('mocapi:integration-idempotency-store');
/**
 * Integration slot for the `McpTaskStore` that keeps tasks (e.g. a shared Redis store, so any node
 * answers tasks/get for any task). An application's own `taskStore` option wins; with neither, the
 * in-memory store is used.
 */
export const INTEGRATION_TASK_STORE = Symbol.for('mocapi:integration-task-store');
/**
 * Integration slot for the `McpTaskExecutor` that runs task handlers (e.g. a BullMQ queue, so a task
 * outlives its node). An application's own `taskExecutor` option wins; with neither, handlers run in
 * process on the node that took the call.
 */
export const INTEGRATION_TASK_EXECUTOR = Symbol.for('mocapi:integration-task-executor');
/**
 * Integration slot for one `McpRequestObserver` that watches every MCP request. It runs in addition
 * to the audit sink and to every provider marked `@McpObserver()` (the way to register several,
 * e.g. `McpOpenTelemetryModule`'s and the application's own); this slot's observer is outermost.
 */
export const INTEGRATION_REQUEST_OBSERVER = Symbol.for('mocapi:integration-request-observer');
/**
 * Integration slot for the `McpAuditSink` that receives one event per finished request. An
 * application's own `auditSink` option wins; with neither, events are logged at debug level.
 */
export const INTEGRATION_AUDIT_SINK = Symbol.for('mocapi:integration-audit-sink');
/**
 * Integration slot for the `McpEventBus` that carries list_changed and resource updates to listening
 * streams (e.g. Redis pub/sub, so every node hears them). An application's own `eventBus` option
 * wins; with neither, events stay in the process.
 */
export const INTEGRATION_EVENT_BUS = Symbol.for('mocapi:integration-event-bus');
/**
 * Integration slot for the `McpSessionBackplane` that shares 2025-era sessions between nodes (e.g.
 * Redis). An application's own `sessionBackplane` option wins; with neither, nothing is shared.
 */
export const INTEGRATION_SESSION_BACKPLANE = Symbol.for('mocapi:integration-session-backplane');
/**
 * Integration slot for one `McpMethodGroup` of methods an extension adds to the method table both
 * eras share (e.g. `skills/list` of `@mocapi/nestjs/skills`). Without one, only the core's methods
 * are answered. Internal to this package's entries: the method-group shape is not public API.
 */
export const INTEGRATION_METHOD_GROUP = Symbol.for('mocapi:integration-method-group');
