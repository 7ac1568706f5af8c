import { SetMetadata } from '@nestjs/common';

/** Metadata key that marks a provider class as an {@link McpRequestObserver}. */
export const MCP_OBSERVER_METADATA = 'mocapi:request-observer';

/**
 * Marks a provider as an `McpRequestObserver`: every such provider, in any module, watches every
 * MCP request beside the audit sink and the other observers (they compose: each one's `around`
 * wraps the next, in module registration order, and all of them get `finished` and
 * `sessionEnded`). Singleton providers only. With no observer registered nothing runs per request.
 *
 * ```ts
 * @McpObserver()
 * @Injectable()
 * export class SlowCallAlarm implements McpRequestObserver {
 *   finished(event: McpAuditEvent) { if (event.durationMs > 2_000) this.alerts.raise(event); }
 * }
 * ```
 *
 * @publicApi
 */
export const McpObserver = (): ClassDecorator => SetMetadata(MCP_OBSERVER_METADATA, true);
