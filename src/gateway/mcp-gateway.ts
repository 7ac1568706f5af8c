import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Client, McpSubscription } from '@modelcontextprotocol/client';
import { McpClientRegistry } from '../client/mcp-client.registry.js';
import type { McpHealthProbe, McpHealthProbeResult } from '../core/mcp-health-probe.js';
import { logText } from '../protocol/log-text.js';
import { McpServers } from '../mcp-servers.js';
import type { ResolvedMcpGatewayOptions } from './mcp-gateway.options.js';
import { loadTraceApi } from './trace-context.js';
import { UpstreamMount } from './upstream-mount.js';
import { UpstreamRelay } from './upstream-relay.js';

const LIST_CHANGED = [
  'notifications/tools/list_changed',
  'notifications/prompts/list_changed',
  'notifications/resources/list_changed',
] as const;

/**
 * What the gateway says of one upstream (health details, dashboards).
 *
 * @publicApi
 */
export interface McpUpstreamState {
  readonly name: string;
  readonly prefix: string;
  /** Whether its items are mounted (it was listed at least once). */
  readonly mounted: boolean;
  /** Calls to this 2025-era upstream waiting on this node for a user's answer. */
  readonly waitingCalls: number;
}

/**
 * Mounts each upstream at bootstrap (an upstream that cannot be listed is tried again every
 * `checkIntervalMs`, and is absent until then), lists it again on its `list_changed` and when its
 * connection is renewed, and ends the waiting calls at shutdown. Built by `McpGatewayModule`.
 *
 * @publicApi
 */
@Injectable()
export class McpGateway implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('McpGateway');
  private readonly mounts: UpstreamMount[] = [];
  private readonly wired = new WeakSet<Client>();
  private readonly subscriptions = new Set<McpSubscription>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** @internal Built by `McpGatewayModule`. */
  constructor(
    private readonly options: ResolvedMcpGatewayOptions,
    private readonly clients: McpClientRegistry,
    private readonly servers: McpServers,
  ) {}

  /** Every upstream's state. */
  get upstreams(): McpUpstreamState[] {
    return this.mounts.map((mount) => ({
      name: mount.relay.upstream.name,
      prefix: mount.relay.upstream.prefix,
      mounted: mount.mountedAt !== undefined,
      waitingCalls: mount.relay.waitingCalls,
    }));
  }

  /**
   * @internal For `@mocapi/nestjs/terminus` (`McpHealthIndicator`, as `upstreams`): up when every upstream is
   * mounted and answers (ping, or server/discover in the 2026-07-28 era) within `timeoutMs` (default 2000), else down naming each that is not.
   */
  healthProbe(timeoutMs = 2000): McpHealthProbe {
    return { component: 'upstreams', check: () => this.probe(timeoutMs) };
  }

  private async probe(timeoutMs: number): Promise<McpHealthProbeResult> {
    const problems = await Promise.all(
      this.mounts.map(async (mount) => {
        const { name, client } = mount.relay.upstream;
        if (mount.mountedAt === undefined) return `${name}: not mounted (it could not be listed)`;
        let timer: NodeJS.Timeout | undefined;
        try {
          await Promise.race([
            this.clients
              .get(client)
              .client()
              .then((connected) =>
                // ping is 2025-era only; server/discover is the 2026-07-28 way to ask "are you there".
                connected.getProtocolEra() === 'legacy'
                  ? connected.ping({ timeout: timeoutMs })
                  : connected.discover({ timeout: timeoutMs }),
              ),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
            }),
          ]);
          return undefined;
        } catch (error) {
          return `${name}: ${(error as Error).message}`;
        } finally {
          clearTimeout(timer);
        }
      }),
    );
    const down = problems.filter((problem) => problem !== undefined);
    return down.length === 0 ? { up: true } : { up: false, reason: down.join('; ') };
  }

  async onApplicationBootstrap(): Promise<void> {
    await loadTraceApi();
    const server = this.servers.get(this.options.server);
    for (const upstream of this.options.upstreams) {
      // A call that finds a new shared connection (the old one ended: the upstream restarted, its
      // session expired) has it watched, and the upstream listed again: it may have changed meanwhile.
      const relay = new UpstreamRelay(upstream, this.clients.get(upstream.client), (client) => {
        if (!this.wired.has(client) && !this.stopped) void this.refresh(mount);
      });
      const mount = new UpstreamMount(relay, server.registrar);
      this.mounts.push(mount);
    }
    await this.check();
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    for (const mount of this.mounts) mount.relay.abandonAll();
    for (const subscription of this.subscriptions) void subscription.close().catch(() => undefined);
  }

  /**
   * Every `checkIntervalMs`: lists an upstream not mounted yet, one whose shared connection is new
   * (the old one ended), and a 2025-era one (its pushed list_changed may have been lost while its
   * stream was down).
   */
  private async check(): Promise<void> {
    await Promise.all(
      this.mounts.map(async (mount) => {
        if (mount.mountedAt === undefined) return this.refresh(mount);
        const client = await this.clients
          .get(mount.relay.upstream.client)
          .client()
          .catch(() => undefined);
        if (!client) return;
        if (!this.wired.has(client)) return this.refresh(mount);
        // A 2025-era session may outlive an upstream restart (sealed session ids) while the
        // notifications sent meanwhile are lost: list it again (a listing that changed nothing
        // changes nothing here).
        if (client.getProtocolEra() === 'legacy') await this.refresh(mount);
      }),
    );
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.check(), this.options.checkIntervalMs);
    this.timer.unref();
  }

  private async refresh(mount: UpstreamMount): Promise<void> {
    const { name, client: clientName } = mount.relay.upstream;
    try {
      const client = await this.clients.get(clientName).client();
      this.watch(client, mount);
      await mount.refresh(client);
    } catch (error) {
      this.logger.warn(
        `Upstream "${name}" could not be listed (${logText((error as Error).message)}); trying again later`,
      );
    }
  }

  /**
   * Lists the upstream again on its list_changed notifications (once per connection): pushed on a
   * 2025-era session, on a `subscriptions/listen` stream of a 2026-07-28 connection (opened again,
   * and the upstream listed again, when it drops).
   */
  private watch(client: Client, mount: UpstreamMount): void {
    if (this.wired.has(client)) return;
    this.wired.add(client);
    for (const method of LIST_CHANGED) {
      client.setNotificationHandler(method, () => {
        if (!this.stopped) void this.refresh(mount);
      });
    }
    if (client.getProtocolEra() !== 'legacy') void this.listen(client, mount);
  }

  private async listen(client: Client, mount: UpstreamMount): Promise<void> {
    const capabilities = client.getServerCapabilities() ?? {};
    const filter = {
      ...(capabilities.tools?.listChanged && { toolsListChanged: true }),
      ...(capabilities.prompts?.listChanged && { promptsListChanged: true }),
      ...(capabilities.resources?.listChanged && { resourcesListChanged: true }),
    };
    if (Object.keys(filter).length === 0 || this.stopped) return;
    try {
      const subscription = await client.listen(filter);
      this.subscriptions.add(subscription);
      void subscription.closed.then((how) => {
        this.subscriptions.delete(subscription);
        if (how === 'local' || this.stopped) return;
        this.wired.delete(client);
        const again = setTimeout(() => void this.refresh(mount), this.options.checkIntervalMs);
        again.unref();
      });
    } catch (error) {
      this.wired.delete(client);
      this.logger.warn(
        `Upstream "${mount.relay.upstream.name}": cannot listen for list changes (${logText((error as Error).message)})`,
      );
    }
  }
}
