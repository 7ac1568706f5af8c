import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { McpEventBus } from '../events/mcp-event-bus.js';
import { McpError } from '../protocol/mcp.error.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpMethod } from '../protocol/mcp-methods.js';
import { META_SUBSCRIPTION_ID } from '../protocol/meta-keys.js';
import type { McpMethodGroup, MethodHandler } from '../calls/method-handler.js';
import { TaskStatusSubscriptions } from '../tasks/task-status-subscriptions.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';

/** Which filter flag asks for each list's list_changed. */
const LIST_FILTERS = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
  taskIds?: string[];
}

/**
 * subscriptions/listen: a long-lived response stream that first acknowledges the honoured filter,
 * then carries the list_changed and resource-updated notifications the client asked for, each
 * tagged with the subscription id (the listen request's id). It ends when the client disconnects
 * (or falls too far behind on the stream, which is then dropped), or with a result when the server
 * shuts down. The filter's lists are bounded (`limits.maxListenFilterEntries`, `limits.maxUriLength`),
 * so neither the stream's state nor its acknowledgement can grow with what a client sends.
 */
@Injectable()
export class SubscriptionsMethods implements McpMethodGroup, OnModuleDestroy {
  private readonly open = new Set<() => void>();

  constructor(
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly bus: McpEventBus,
    private readonly taskStatus: TaskStatusSubscriptions,
  ) {}

  enabled(): boolean {
    return true;
  }

  readonly methods: Record<string, MethodHandler> = {
    [McpMethod.SubscriptionsListen]: (exchange) => this.listen(exchange),
  };

  onModuleDestroy(): void {
    for (const end of [...this.open]) end();
  }

  private async listen(exchange: McpExchange): Promise<Record<string, unknown>> {
    const filter = honoured(exchange.params['notifications'], this.limits);
    const subscriptionId = exchange.id;
    const meta = { [META_SUBSCRIPTION_ID]: subscriptionId };
    const send = (method: string, params: Record<string, unknown> = {}) =>
      exchange.notify({ jsonrpc: '2.0', method, params: { ...params, _meta: meta } });

    const tasks = await this.taskStatus.subscribe(
      exchange,
      (exchange.params['notifications'] as Record<string, unknown>)['taskIds'],
      send,
    );
    if (tasks) filter.taskIds = tasks.taskIds;
    send('notifications/subscriptions/acknowledged', { notifications: filter });
    const uris = new Set(filter.resourceSubscriptions ?? []);
    const unsubscribe = this.bus.subscribe((event) => {
      if (event.kind === 'resource_updated') {
        if (uris.has(event.uri)) send('notifications/resources/updated', { uri: event.uri });
      } else if (event.kind === 'list_changed' && filter[LIST_FILTERS[event.list]]) {
        send(`notifications/${event.list}/list_changed`);
      }
    });

    await new Promise<void>((resolve) => {
      const end = () => {
        this.open.delete(end);
        exchange.signal.removeEventListener('abort', end);
        resolve();
      };
      // Gone while the task filter loaded, or dropped for falling behind on the acknowledgement:
      // the abort event fired already and would never come again.
      if (exchange.signal.aborted) return end();
      this.open.add(end);
      exchange.signal.addEventListener('abort', end, { once: true });
    });
    unsubscribe();
    tasks?.off();
    return { _meta: meta };
  }
}

/**
 * The subset of the requested filter this server honours (all of it, when well formed); a list
 * longer than the bounds allow, or a URI longer than `maxUriLength`, is refused (-32602, HTTP 400).
 */
function honoured(raw: unknown, limits: ResolvedMcpLimits): SubscriptionFilter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw McpError.invalidParams('params.notifications must be an object (the subscription filter)');
  }
  const requested = raw as Record<string, unknown>;
  const filter: SubscriptionFilter = {};
  if (requested['toolsListChanged'] === true) filter.toolsListChanged = true;
  if (requested['promptsListChanged'] === true) filter.promptsListChanged = true;
  if (requested['resourcesListChanged'] === true) filter.resourcesListChanged = true;
  const uris = requested['resourceSubscriptions'];
  boundEntries(uris, 'resourceSubscriptions', limits.maxListenFilterEntries);
  boundEntries(requested['taskIds'], 'taskIds', limits.maxListenFilterEntries);
  if (Array.isArray(uris)) {
    const strings = uris.filter((u): u is string => typeof u === 'string');
    const tooLong = strings.findIndex((uri) => uri.length > limits.maxUriLength);
    if (tooLong !== -1) {
      throw McpError.invalidParams(
        `params.notifications.resourceSubscriptions[${tooLong}] is longer than ${limits.maxUriLength} characters (limits.maxUriLength)`,
        { limit: 'maxUriLength', max: limits.maxUriLength },
        400,
      );
    }
    filter.resourceSubscriptions = [...new Set(strings)];
  }
  return filter;
}

/** Refuses a filter list with more entries than `max` (limits.maxListenFilterEntries). */
function boundEntries(list: unknown, name: 'resourceSubscriptions' | 'taskIds', max: number): void {
  if (!Array.isArray(list) || list.length <= max) return;
  throw McpError.invalidParams(
    `params.notifications.${name} lists ${list.length} entries; at most ${max} are accepted (limits.maxListenFilterEntries)`,
    { limit: 'maxListenFilterEntries', max },
    400,
  );
}
