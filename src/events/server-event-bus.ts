import { type McpEvent, McpEventBus, type McpEventListener } from './mcp-event-bus.js';

/**
 * One server's side of an event bus that all the servers of an application share (an integration's,
 * such as Redis, or the application's own): what it publishes is marked with its `path`, and its
 * listeners hear only its own events and unmarked ones (from nodes that do not mark them yet).
 */
export class ServerEventBus extends McpEventBus {
  constructor(
    private readonly shared: McpEventBus,
    private readonly server: string,
  ) {
    super();
  }

  publish(event: McpEvent): void {
    this.shared.publish({ ...event, server: this.server });
  }

  subscribe(listener: McpEventListener): () => void {
    return this.shared.subscribe((event) => {
      if (event.server === undefined || event.server === this.server) listener(event);
    });
  }
}
