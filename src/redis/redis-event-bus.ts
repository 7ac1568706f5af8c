import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InProcessEventBus } from '../events/in-process-event-bus.js';
import { McpEventBus } from '../events/mcp-event-bus.js';
import { isJsonObject } from '../protocol/is-json-object.js';
import type { McpTaskRecord } from '../task-store/mcp-task-record.js';
import { McpRedisConnection } from './mcp-redis-connection.js';

/** What travels on the channel: the event and the node that published it. */
interface Envelope {
  readonly from: string;
  readonly event: McpEventBus.Event;
}

/**
 * {@link McpEventBus} on Redis pub/sub: an event is delivered on the publishing node at once and
 * published on one channel that every node subscribes to; each node delivers what others published
 * (its own messages come back and are skipped, so nothing is delivered twice). While Redis is down,
 * events reach this node's streams only (the outage is logged once by the connection).
 */
@Injectable()
export class RedisEventBus extends McpEventBus {
  private readonly node = randomUUID();
  private readonly local = new InProcessEventBus();
  private readonly channel: string;

  constructor(private readonly redis: McpRedisConnection) {
    super();
    this.channel = `${redis.prefix}events`;
    redis.subscribe(this.channel, (message) => {
      const envelope = parse(message);
      if (envelope && envelope.from !== this.node) this.local.publish(envelope.event);
    });
  }

  publish(event: McpEventBus.Event): void {
    this.local.publish(event);
    const envelope: Envelope = { from: this.node, event };
    this.redis.publish(this.channel, JSON.stringify(envelope)).catch(() => undefined);
  }

  subscribe(listener: McpEventBus.Listener): () => void {
    return this.local.subscribe(listener);
  }
}

/** An envelope with a well-formed event, or undefined. */
function parse(message: string): Envelope | undefined {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return undefined;
  }
  if (!isJsonObject(value) || typeof value['from'] !== 'string' || !isJsonObject(value['event'])) return undefined;
  const event = value['event'];
  // The server it happened on, when the application runs several.
  const server = typeof event['server'] === 'string' ? { server: event['server'] } : {};
  if (event['kind'] === 'resource_updated' && typeof event['uri'] === 'string') {
    return { from: value['from'], event: { kind: 'resource_updated', uri: event['uri'], ...server } };
  }
  const task = event['task'];
  if (event['kind'] === 'task_changed' && isJsonObject(task) && typeof task['taskId'] === 'string') {
    return { from: value['from'], event: { kind: 'task_changed', task: task as unknown as McpTaskRecord, ...server } };
  }
  const list = event['list'];
  if (event['kind'] === 'list_changed' && (list === 'tools' || list === 'prompts' || list === 'resources')) {
    return { from: value['from'], event: { kind: 'list_changed', list, ...server } };
  }
  return undefined;
}
