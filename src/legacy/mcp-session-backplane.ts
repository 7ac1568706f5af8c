import type { LoggingLevel } from '../protocol/wire-types.js';

/** The names the package's own code uses for {@link McpSessionBackplane.SharedState} and {@link McpSessionBackplane.Handlers}. */
export type SharedSessionState = McpSessionBackplane.SharedState;
export type SessionBackplaneHandlers = McpSessionBackplane.Handlers;

/**
 * What 2025-era sessions share between nodes. A session's claims ride in its sealed id, so any
 * node recognizes it; its mutable part, and the requests a node pushed to its client, live on one
 * node unless a backplane shares them. An abstract class, so DI can swap it: the default shares
 * nothing (one node, or a load balancer that keeps each session on one node); an integration module
 * (e.g. `@mocapi/nestjs/redis`) keeps the shared state in a store with expiry and routes responses
 * and session ends to the node that holds the session's streams.
 *
 * Methods may reject with an `McpError` (e.g. the store is unreachable): the request that needed
 * them is answered with that error.
 *
 * @publicApi
 */
export abstract class McpSessionBackplane {
  /** Called once at startup with how to act on other nodes' messages. */
  abstract attach(handlers: McpSessionBackplane.Handlers): void;

  /**
   * Whether {@link load} gives back all a node needs to serve a session whose idle state it dropped
   * (log level, subscriptions). When it does, a node that evicts such a state reloads it on the
   * session's next request; when it does not (the default), the evicted session's id is refused
   * with 404 from then on, so its client initializes again instead of carrying on with blank state.
   */
  get keepsState(): boolean {
    return false;
  }

  /** The shared state of a session, or undefined when nothing is shared (or nothing was recorded yet). */
  abstract load(sessionId: string): Promise<McpSessionBackplane.SharedState | undefined>;

  /** Records a new log level and tells the other nodes. */
  abstract setLogLevel(sessionId: string, level: LoggingLevel): Promise<void>;

  /** Records a resource subscription (or its end) and tells the other nodes. */
  abstract setSubscribed(sessionId: string, uri: string, subscribed: boolean): Promise<void>;

  /** Records that the session ended and tells the other nodes. */
  abstract end(sessionId: string): Promise<void>;

  /**
   * Hands a client's response that matches no request pushed by this node to the node that pushed
   * it; resolves to whether a request there was waiting for it.
   */
  abstract forward(sessionId: string, message: Record<string, unknown>): Promise<boolean>;
}

// A namespace of types only, merged with the class: what an implementer of a backplane reads.
// eslint-disable-next-line @typescript-eslint/no-namespace
export declare namespace McpSessionBackplane {
  /**
   * What of a 2025-era session every node must agree on: whether it was ended (DELETE), its log
   * level (`logging/setLevel`) and its resource subscriptions (`resources/subscribe`).
   */
  export interface SharedState {
    readonly ended: boolean;
    readonly logLevel?: LoggingLevel;
    readonly subscriptions: readonly string[];
  }

  /** How this node acts on what other nodes send through the {@link McpSessionBackplane}. */
  export interface Handlers {
    /**
     * A client's response to a request this node pushed arrived on another node: settle the waiting
     * push; false when nothing here waits for it.
     */
    deliver(sessionId: string, message: Record<string, unknown>): boolean;
    /** Another node ended the session: close its streams and calls here, refuse its id from now on. */
    ended(sessionId: string): void;
    /** Another node changed the session's shared state. */
    changed(sessionId: string, state: SharedState): void;
    /** How long a session id stays valid (`legacy.sessionTtlMs`): shared state need not outlive it. */
    readonly sessionTtlMs: number;
  }
}
