import { Injectable } from '@nestjs/common';
import { McpEventBus } from '../events/mcp-event-bus.js';

/**
 * Tells `subscriptions/listen` streams (and 2025-era sessions subscribed with `resources/subscribe`)
 * that a resource changed: call `notifyUpdated(uri)` and every stream subscribed to that URI gets
 * `notifications/resources/updated` — on every node when the {@link McpEventBus} is shared.
 *
 * @publicApi
 */
@Injectable()
export class McpResourceUpdates {
  constructor(private readonly bus: McpEventBus) {}

  notifyUpdated(uri: string): void {
    this.bus.publish({ kind: 'resource_updated', uri });
  }
}
