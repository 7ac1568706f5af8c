import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { McpEventBus } from '../events/mcp-event-bus.js';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import { McpClock } from '../mrtr/mcp-clock.js';
import type { LoggingLevel } from '../protocol/wire-types.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { LegacySessionState } from './legacy-session.state.js';
import { McpSessionBackplane, type SharedSessionState } from './mcp-session.backplane.js';
import { answerPush } from './push-answer.js';

/**
 * This node's mutable state of 2025-era sessions, by session id: bounded (the least recently used
 * idle states go first) and remembering ended sessions for as long as their ids would be valid.
 * It also carries list_changed and resource updates to the sessions' streams, and keeps what every
 * node must agree on (ended, log level, subscriptions, answers to pushed requests) in step through
 * the {@link McpSessionBackplane}.
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
    private readonly bus: McpEventBus,
    private readonly backplane: McpSessionBackplane,
    @Optional() private readonly telemetry?: McpTelemetry,
  ) {}

  onModuleInit(): void {
    this.unsubscribe.push(
      this.bus.subscribe((event) => {
        if (event.kind === 'resource_updated') this.resourceUpdated(event.uri);
        else if (event.kind === 'list_changed') this.broadcast(`notifications/${event.list}/list_changed`);
      }),
    );
    this.backplane.attach({
      deliver: (id, message) => {
        const state = this.states.get(id);
        return state !== undefined && answerPush(state, message, this.options.maxJsonDepth);
      },
      ended: (id) => this.endHere(id, 'The client ended the session'),
      changed: (id, shared) => {
        const state = this.states.get(id);
        if (state) apply(state, shared);
      },
    });
  }

  onModuleDestroy(): void {
    for (const off of this.unsubscribe) off();
    for (const state of this.states.values()) {
      state.end('The MCP server is shutting down', 'shutdown');
      this.reportEnded(state);
    }
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

  /**
   * The state of a live session with what the nodes share about it brought up to date, or undefined
   * when the session was ended (here or on another node).
   */
  async open(id: string): Promise<LegacySessionState | undefined> {
    if (this.ended.has(id)) return undefined;
    const shared = await this.backplane.load(id);
    if (shared?.ended) {
      this.endHere(id, 'The client ended the session');
      return undefined;
    }
    const state = this.state(id);
    if (shared) apply(state, shared);
    return state;
  }

  /** Ends a session on every node: its streams close, its calls abort, its id is refused from now on. */
  async end(id: string, reason = 'The session was ended'): Promise<void> {
    // Counted once, by the node the client ended it on (not by those the backplane tells).
    const state = this.states.get(id);
    if (state) this.reportEnded(state);
    this.endHere(id, reason);
    await this.backplane.end(id);
  }

  /** `logging/setLevel`, here and for the other nodes. */
  async setLogLevel(state: LegacySessionState, level: LoggingLevel): Promise<void> {
    state.logLevel = level;
    await this.backplane.setLogLevel(state.id, level);
  }

  /** `resources/subscribe` (or `unsubscribe`), here and for the other nodes. */
  async setSubscribed(state: LegacySessionState, uri: string, subscribed: boolean): Promise<void> {
    if (subscribed) state.subscriptions.add(uri);
    else state.subscriptions.delete(uri);
    await this.backplane.setSubscribed(state.id, uri, subscribed);
  }

  /**
   * Hands a client's response to the pushed request it answers, here or on the node that pushed it;
   * false when none is waiting for it.
   */
  async respond(state: LegacySessionState, message: Record<string, unknown>): Promise<boolean> {
    if (answerPush(state, message, this.options.maxJsonDepth)) return true;
    return this.backplane.forward(state.id, message);
  }

  private endHere(id: string, reason: string): void {
    this.states.get(id)?.end(reason);
    this.states.delete(id);
    this.ended.set(id, this.clock.now());
    this.pruneEnded();
  }

  /**
   * Forgets a connection-scoped session (stdio) without remembering it as ended; `errorType` says
   * why the connection failed, if it did.
   */
  release(id: string, errorType?: string): void {
    const state = this.states.get(id);
    state?.end('The connection closed', 'disconnected');
    this.states.delete(id);
    if (state) this.reportEnded(state, errorType);
  }

  /**
   * Reports a session this node served as ended (`mcp.server.session.duration`). One past its
   * lifetime ended at its expiry. A state evicted while idle is not an ended session.
   */
  private reportEnded(state: LegacySessionState, errorType?: string): void {
    const opened = state.opened;
    if (!opened || !this.telemetry) return;
    state.opened = undefined;
    const expiry = opened.transport === 'http' ? opened.issuedAt + this.options.legacy.sessionTtlMs : Infinity;
    const end = Math.min(this.clock.now(), expiry);
    this.telemetry.sessionEnded({
      sessionId: state.id,
      transport: opened.transport,
      protocolVersion: opened.protocolVersion,
      startedAt: opened.issuedAt,
      durationMs: Math.max(0, end - opened.issuedAt),
      ...(errorType !== undefined && { errorType }),
    });
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

/** Takes over what the nodes share about a session. */
function apply(state: LegacySessionState, shared: SharedSessionState): void {
  state.logLevel = shared.logLevel ?? state.logLevel;
  state.subscriptions.clear();
  for (const uri of shared.subscriptions) state.subscriptions.add(uri);
}
