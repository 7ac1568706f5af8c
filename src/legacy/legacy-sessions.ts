import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { McpEventBus } from '../events/mcp-event-bus.js';
import { McpClock } from '../core/mcp-clock.js';
import type { LoggingLevel } from '../protocol/wire-types.js';
import { McpTelemetry } from '../telemetry/mcp-telemetry.js';
import { LegacySessionState } from './legacy-session-state.js';
import { McpSessionBackplane, type SharedSessionState } from './mcp-session-backplane.js';
import { answerPush } from './push-answer.js';
import { CallerSessionIndex } from './caller-session-index.js';
import { RefusedSessionIds } from './refused-session-ids.js';
import { SessionStreamFanOut } from './session-stream-fan-out.js';
import { limitExceeded } from './session-limit.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { MCP_LEGACY_OPTIONS, type ResolvedMcpLegacyOptions } from './mcp-legacy.options.js';
import { MCP_LIMITS, type ResolvedMcpLimits } from '../core/mcp-limits.options.js';

/**
 * This node's mutable state of 2025-era sessions, by session id: bounded in all (`limits.maxSessions`:
 * the least recently used idle state of the caller holding the most goes first) and per caller
 * (`limits.maxSessionsPerCaller`: a caller over it loses its own oldest idle session), and refusing
 * the ids of ended sessions (see {@link RefusedSessionIds}). A session whose state was dropped is
 * told: its id is refused (404) so its client initializes again, unless the backplane keeps its state.
 * Its {@link SessionStreamFanOut} carries list_changed and resource updates to the sessions' streams;
 * what every node must agree on (ended, log level, subscriptions, answers to pushed requests) it
 * keeps in step through the {@link McpSessionBackplane}.
 */
@Injectable()
export class LegacySessions implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpLegacySessions');
  private readonly states = new Map<string, LegacySessionState>();
  private readonly callers = new CallerSessionIndex();
  /** Sessions ended, or whose state was dropped: their sealed ids must not be honoured again here. */
  private readonly refused: RefusedSessionIds;
  private readonly unsubscribe: Array<() => void> = [];
  private readonly streams = new SessionStreamFanOut(this.states);

  constructor(
    @Inject(MCP_LEGACY_OPTIONS) private readonly legacy: ResolvedMcpLegacyOptions,
    @Inject(MCP_LIMITS) private readonly limits: ResolvedMcpLimits,
    private readonly clock: McpClock,
    private readonly bus: McpEventBus,
    private readonly backplane: McpSessionBackplane,
    @Optional() private readonly telemetry?: McpTelemetry,
  ) {
    this.refused = new RefusedSessionIds(clock, legacy.sessionTtlMs, limits.maxSessions * 10);
  }

  onModuleInit(): void {
    this.unsubscribe.push(this.bus.subscribe(this.streams.deliver));
    this.backplane.attach({
      sessionTtlMs: this.legacy.sessionTtlMs,
      deliver: (id, message) => {
        const state = this.states.get(id);
        return state !== undefined && answerPush(state, message, this.limits.maxJsonDepth);
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
    this.callers.clear();
  }

  /** How many sessions this node holds state for. */
  get size(): number {
    return this.states.size;
  }

  /**
   * The state of a live session, made on first use; `caller` (its principal, else its client
   * address) is whose quota a new state counts against.
   */
  state(id: string, caller?: string): LegacySessionState {
    let state = this.states.get(id);
    if (state) {
      this.callers.touch(state.caller, id);
      return state;
    }
    state = new LegacySessionState(id, caller);
    this.makeRoom(state.caller);
    this.callers.touch(state.caller, id);
    this.states.set(id, state);
    return state;
  }

  isEnded(id: string): boolean {
    return this.refused.has(id);
  }

  /**
   * The state of a live session with what the nodes share about it brought up to date, or undefined
   * when the session was ended (here or on another node), or its state may have been dropped here
   * without the backplane keeping it. `issuedAt` is when the session's id was sealed.
   */
  async open(id: string, caller?: string, issuedAt?: number): Promise<LegacySessionState | undefined> {
    if (this.refused.has(id)) return undefined;
    const shared = await this.backplane.load(id);
    if (shared?.ended) {
      this.endHere(id, 'The client ended the session');
      return undefined;
    }
    // Ended while the shared state loaded (evicted to make room for another session, say).
    if (this.refused.has(id)) return undefined;
    const forgotten = issuedAt !== undefined && !this.backplane.keepsState && this.refused.mayHaveForgotten(issuedAt);
    if (forgotten && !this.states.has(id)) return undefined;
    const state = this.state(id, caller);
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

  /**
   * `resources/subscribe` (or `unsubscribe`), here and for the other nodes. A subscription is
   * refused (-32602 naming the limit) when its URI is longer than `limits.maxUriLength` or the
   * session already holds `limits.maxSubscriptionsPerSession` others; the count is that of the
   * state just loaded, so with a shared backplane it covers every node's subscriptions.
   */
  async setSubscribed(state: LegacySessionState, uri: string, subscribed: boolean): Promise<void> {
    const { maxUriLength, maxSubscriptionsPerSession } = this.limits;
    if (subscribed && uri.length > maxUriLength) {
      throw limitExceeded('maxUriLength', maxUriLength, `The resource URI is longer than ${maxUriLength} characters`);
    }
    if (subscribed && !state.subscriptions.has(uri) && state.subscriptions.size >= maxSubscriptionsPerSession) {
      throw limitExceeded(
        'maxSubscriptionsPerSession',
        maxSubscriptionsPerSession,
        `This session is subscribed to ${maxSubscriptionsPerSession} resources already; unsubscribe from one first`,
      );
    }
    if (subscribed) state.subscriptions.add(uri);
    else state.subscriptions.delete(uri);
    await this.backplane.setSubscribed(state.id, uri, subscribed);
  }

  /**
   * Hands a client's response to the pushed request it answers, here or on the node that pushed it;
   * false when none is waiting for it.
   */
  async respond(state: LegacySessionState, message: Record<string, unknown>): Promise<boolean> {
    if (answerPush(state, message, this.limits.maxJsonDepth)) return true;
    return this.backplane.forward(state.id, message);
  }

  private endHere(id: string, reason: string): void {
    this.states.get(id)?.end(reason);
    this.drop(id);
    this.refused.add(id);
  }

  /** Forgets a state, and its place in its caller's quota. */
  private drop(id: string): void {
    const state = this.states.get(id);
    if (!state) return;
    this.states.delete(id);
    this.callers.remove(state.caller, id);
  }

  /**
   * Forgets a connection-scoped session (stdio) without remembering it as ended; `errorType` says
   * why the connection failed, if it did.
   */
  release(id: string, errorType?: string): void {
    const state = this.states.get(id);
    state?.end('The connection closed', 'disconnected');
    this.drop(id);
    if (state) this.reportEnded(state, errorType);
  }

  /**
   * Reports a session this node served as ended (`mcp.server.session.duration`). One past its
   * lifetime ended at its expiry. A state evicted while idle ends its session only when its id is
   * refused from then on (no backplane keeps the state).
   */
  private reportEnded(state: LegacySessionState, errorType?: string): void {
    const opened = state.opened;
    if (!opened || !this.telemetry) return;
    state.opened = undefined;
    const expiry = opened.transport === 'http' ? opened.issuedAt + this.legacy.sessionTtlMs : Infinity;
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

  /**
   * Before a new state of `caller`: its own oldest idle session gives way when it holds its quota
   * (none idle: the new session is refused, 429); then, while this node is full, the oldest idle
   * session of the caller holding the most. States with anything open (a stream, a call, a pushed
   * question) are never dropped.
   */
  private makeRoom(caller: string): void {
    const { maxSessionsPerCaller: max } = this.limits;
    if (this.callers.count(caller) >= max) {
      const own = this.callers.oldestOf(caller, this.idle);
      // Every session of the caller has work in progress: the new one waits for one to end.
      if (own === undefined) {
        throw limitExceeded(
          'maxSessionsPerCaller',
          max,
          `This caller has ${max} sessions with streams or calls open on this server; end one (DELETE) first`,
          McpErrorCode.InvalidRequest,
          429,
        );
      }
      this.endOverQuota(own);
    }
    while (this.states.size >= this.limits.maxSessions) {
      const id = this.callers.oldestOfLargest(this.idle);
      if (id === undefined) return;
      this.dropForRoom(id);
    }
  }

  /** States with anything open (a stream, a call, a pushed question) never give way. */
  private readonly idle = (id: string): boolean => {
    const state = this.states.get(id);
    return state !== undefined && !state.busy;
  };

  /** A session past its caller's quota ends, on every node. */
  private endOverQuota(id: string): void {
    const state = this.states.get(id);
    if (state) this.reportEnded(state);
    this.endHere(id, 'The caller opened more sessions than limits.maxSessionsPerCaller');
    this.backplane.end(id).catch((error: unknown) => {
      this.logger.warn(`Could not record an ended session for the other nodes: ${String(error)}`);
    });
  }

  /** A state dropped to make room survives only where the backplane keeps it; else its id is refused. */
  private dropForRoom(id: string): void {
    const state = this.states.get(id);
    this.drop(id);
    if (state && !this.backplane.keepsState) {
      this.reportEnded(state);
      this.refused.add(id);
    }
  }
}

/** Takes over what the nodes share about a session. */
function apply(state: LegacySessionState, shared: SharedSessionState): void {
  state.logLevel = shared.logLevel ?? state.logLevel;
  state.subscriptions.clear();
  for (const uri of shared.subscriptions) state.subscriptions.add(uri);
}
