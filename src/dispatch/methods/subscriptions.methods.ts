import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { McpPromptRegistry } from '../../discovery/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../../discovery/mcp-resource.registry.js';
import { McpResourceUpdates } from '../../discovery/mcp-resource-updates.js';
import { McpToolRegistry } from '../../discovery/mcp-tool.registry.js';
import { McpError } from '../../protocol/mcp.error.js';
import type { McpExchange } from '../../protocol/mcp-exchange.js';
import { McpMethod } from '../../protocol/mcp-methods.js';
import { META_SUBSCRIPTION_ID } from '../../protocol/meta-keys.js';
import type { McpMethodGroup, MethodHandler } from '../method-handler.js';
import { ResultStamp } from '../result-stamp.js';

interface SubscriptionFilter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

/**
 * subscriptions/listen: a long-lived response stream that first acknowledges the honoured filter,
 * then carries the list_changed and resource-updated notifications the client asked for, each
 * tagged with the subscription id (the listen request's id). It ends when the client disconnects,
 * or with a result when the server shuts down.
 */
@Injectable()
export class SubscriptionsMethods implements McpMethodGroup, OnModuleDestroy {
  private readonly open = new Set<() => void>();

  constructor(
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly updates: McpResourceUpdates,
    private readonly stamp: ResultStamp,
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
    const filter = honoured(exchange.params['notifications']);
    const subscriptionId = exchange.id;
    const meta = { [META_SUBSCRIPTION_ID]: subscriptionId };
    const send = (method: string, params: Record<string, unknown> = {}) =>
      exchange.notify({ jsonrpc: '2.0', method, params: { ...params, _meta: meta } });

    send('notifications/subscriptions/acknowledged', { notifications: filter });
    const unsubscribe: Array<() => void> = [];
    if (filter.toolsListChanged) unsubscribe.push(this.tools.onChange(() => send('notifications/tools/list_changed')));
    if (filter.promptsListChanged)
      unsubscribe.push(this.prompts.onChange(() => send('notifications/prompts/list_changed')));
    if (filter.resourcesListChanged)
      unsubscribe.push(this.resources.onChange(() => send('notifications/resources/list_changed')));
    if (filter.resourceSubscriptions) {
      const uris = new Set(filter.resourceSubscriptions);
      unsubscribe.push(
        this.updates.onUpdated((uri) => uris.has(uri) && send('notifications/resources/updated', { uri })),
      );
    }

    await new Promise<void>((resolve) => {
      const end = () => {
        this.open.delete(end);
        exchange.signal.removeEventListener('abort', end);
        resolve();
      };
      this.open.add(end);
      exchange.signal.addEventListener('abort', end, { once: true });
    });
    for (const off of unsubscribe) off();
    return this.stamp.complete({ _meta: meta });
  }
}

/** The subset of the requested filter this server honours (all of it, when well formed). */
function honoured(raw: unknown): SubscriptionFilter {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw McpError.invalidParams('params.notifications must be an object (the subscription filter)');
  }
  const requested = raw as Record<string, unknown>;
  const filter: SubscriptionFilter = {};
  if (requested['toolsListChanged'] === true) filter.toolsListChanged = true;
  if (requested['promptsListChanged'] === true) filter.promptsListChanged = true;
  if (requested['resourcesListChanged'] === true) filter.resourcesListChanged = true;
  const uris = requested['resourceSubscriptions'];
  if (Array.isArray(uris)) filter.resourceSubscriptions = uris.filter((u): u is string => typeof u === 'string');
  return filter;
}
