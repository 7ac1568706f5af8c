import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { McpPromptRegistry } from '../discovery/mcp-prompt.registry.js';
import { McpResourceRegistry } from '../discovery/mcp-resource.registry.js';
import { McpResourceUpdates } from '../discovery/mcp-resource-updates.js';
import { McpToolRegistry } from '../discovery/mcp-tool.registry.js';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import { McpClock } from '../mrtr/mcp-clock.js';
import { LegacySessionState } from './legacy-session.state.js';

/**
 * This node's mutable state of 2025-era sessions, by session id: bounded (the least recently used
 * idle states go first) and remembering ended sessions for as long as their ids would be valid.
 * It also carries list_changed and resource updates to the sessions' streams.
 */
@Injectable()
export class LegacySessions implements OnModuleInit, OnModuleDestroy {
  private readonly states = new Map<string, LegacySessionState>();
  /** Session id → when it was ended (DELETE): its sealed id must not be honoured again here. */
  private readonly ended = new Map<string, number>();
  private readonly unsubscribe: Array<() => void> = [];

  constructor(
    @Inject(MCP_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly clock: McpClock,
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
    private readonly resources: McpResourceRegistry,
    private readonly updates: McpResourceUpdates,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.tools.onChange(() => this.broadcast('notifications/tools/list_changed')),
      this.prompts.onChange(() => this.broadcast('notifications/prompts/list_changed')),
      this.resources.onChange(() => this.broadcast('notifications/resources/list_changed')),
      this.updates.onUpdated((uri) => this.resourceUpdated(uri)),
    );
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
    for (const state of this.states.values()) state.end('The MCP server is shutting down');
    this.states.clear();
  }

  /** How many sessions this node holds state for. */
  get size(): number {
    return this.states.size;
  }

  /** The state of a live session, made on first use. */
  state(id: string): LegacySessionState {
    let state = this.states.get(id);
    if (state) {
      // Map order is the eviction order: the most recently used goes last.
      this.states.delete(id);
    } else {
      state = new LegacySessionState(id);
      this.evictIdle();
    }
    this.states.set(id, state);
    return state;
  }

  isEnded(id: string): boolean {
    return this.ended.has(id);
  }

  /** Ends a session on this node: its streams close, its calls abort, its id is refused from now on. */
  end(id: string, reason = 'The session was ended'): void {
    this.states.get(id)?.end(reason);
    this.states.delete(id);
    this.ended.set(id, this.clock.now());
    this.pruneEnded();
  }

  /** Forgets a connection-scoped session (stdio) without remembering it as ended. */
  release(id: string): void {
    this.states.get(id)?.end('The connection closed');
    this.states.delete(id);
  }

  private broadcast(method: string): void {
    for (const state of this.states.values()) state.stream?.send({ jsonrpc: '2.0', method });
  }

  private resourceUpdated(uri: string): void {
    for (const state of this.states.values()) {
      if (state.subscriptions.has(uri))
        state.stream?.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
    }
  }

  private evictIdle(): void {
    if (this.states.size < this.options.legacy.maxSessions) return;
    for (const [id, state] of this.states) {
      if (this.states.size < this.options.legacy.maxSessions) return;
      if (!state.busy) this.states.delete(id);
    }
  }

  private pruneEnded(): void {
    const oldest = this.clock.now() - this.options.legacy.sessionTtlMs;
    for (const [id, at] of this.ended) {
      if (at >= oldest && this.ended.size <= this.options.legacy.maxSessions * 10) return;
      this.ended.delete(id);
    }
  }
}
