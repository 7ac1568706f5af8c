/**
 * How a `tools/call` that carried an `idempotencyKey` (SEP-3182) ended, as kept for its retries:
 * the result it answered with (a tool error result included), or the JSON-RPC error it was refused
 * with.
 */
export type IdempotentOutcome =
  | { readonly result: Record<string, unknown> }
  | {
      readonly error: {
        readonly code: number;
        readonly message: string;
        readonly data?: unknown;
        readonly httpStatus: number;
      };
    };

/** What {@link McpIdempotencyStore.claim} found for one key. */
export type IdempotencyClaim =
  /** Nobody holds the key: the caller now does; run the call, then `settle`. */
  | { readonly kind: 'run' }
  /** A call with this key is running (here or on another node); `fingerprint` is its tool and arguments. */
  | { readonly kind: 'running'; readonly fingerprint: string }
  /** A call with this key ended within the retention window: `outcome` is how. */
  | { readonly kind: 'recorded'; readonly fingerprint: string; readonly outcome: IdempotentOutcome };

/**
 * Where the keys of idempotent `tools/call`s (SEP-3182) are kept: per record key (the server, the
 * caller and the client's key, hashed), the fingerprint of the call's tool and arguments and, once
 * it ended, its outcome, for a bounded time. An abstract class, so DI can swap it: the core keeps
 * records in this process's memory; `@mocapi/nestjs/redis` shares them between nodes.
 */
export abstract class McpIdempotencyStore {
  /** How long an ended call's outcome is kept (ms): a retry later than this runs as a new call. */
  abstract readonly retentionMs: number;

  /**
   * Takes `key` atomically when nobody holds it (then the caller runs the call and settles it);
   * otherwise answers with what holds it. Never waits for a running call.
   */
  abstract claim(key: string, fingerprint: string): Promise<IdempotencyClaim>;

  /**
   * Ends the claim taken with {@link claim}: records `outcome` for the retention window, or frees
   * the key (undefined: the call ended without an answer worth repeating, e.g. it asked a question).
   */
  abstract settle(key: string, fingerprint: string, outcome: IdempotentOutcome | undefined): Promise<void>;
}
