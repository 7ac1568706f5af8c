import { type McpEvent, McpEventBus, type McpEventListener } from './mcp-event-bus.js';

/**
 * The default {@link McpEventBus}: events reach the listeners of this process only. Also the local
 * half of a shared bus, which delivers here first and then to the other nodes.
 *
 * @publicApi
 */
export class InProcessEventBus extends McpEventBus {
  private readonly listeners = new Set<McpEventListener>();

  publish(event: McpEvent): void {
    for (const listener of this.listeners) listener(event);
  }

  subscribe(listener: McpEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.listeners.size;
  }
}
