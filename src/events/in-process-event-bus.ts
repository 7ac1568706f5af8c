import { Logger } from '@nestjs/common';
import { FanOutQueue } from './fan-out-queue.js';
import { type McpEvent, McpEventBus, type McpEventListener } from './mcp-event-bus.js';

/** A listener and the number of events published before it subscribed (it hears none of those). */
interface Subscriber {
  readonly listener: McpEventListener;
  readonly since: number;
}

/**
 * The default {@link McpEventBus}: events reach the listeners of this process only. Also the local
 * half of a shared bus, which delivers here first and then to the other nodes. Delivery is in
 * slices (a few hundred listeners, then the event loop gets a turn), in publishing order for every
 * listener; a listener that throws is logged and the others still hear the event.
 */
export class InProcessEventBus extends McpEventBus {
  private readonly logger = new Logger('McpEvents');
  private readonly listeners = new Set<Subscriber>();
  private readonly queue = new FanOutQueue(this.logger);
  private published = 0;

  publish(event: McpEvent): void {
    const seq = ++this.published;
    const listeners = this.listeners;
    const logger = this.logger;
    this.queue.push(function* () {
      // A live view: a listener removed meanwhile is skipped, one added since is not told.
      for (const subscriber of listeners) {
        if (subscriber.since >= seq) continue;
        try {
          subscriber.listener(event);
        } catch (error) {
          logger.error('An event listener failed', error instanceof Error ? error.stack : String(error));
        }
        yield;
      }
    }, coalescingKey(event));
  }

  subscribe(listener: McpEventListener): () => void {
    const subscriber: Subscriber = { listener, since: this.published };
    this.listeners.add(subscriber);
    return () => this.listeners.delete(subscriber);
  }

  /** How many listeners are subscribed. */
  get size(): number {
    return this.listeners.size;
  }
}

/**
 * Events that say "this changed, look again": a newer one of the same key makes a waiting older one
 * redundant (a task's newest record supersedes the older).
 */
function coalescingKey(event: McpEvent): string {
  switch (event.kind) {
    case 'list_changed':
      return `list:${event.list}`;
    case 'resource_updated':
      return `resource:${event.uri}`;
    case 'task_changed':
      return `task:${event.task.taskId}`;
  }
}
