import { Inject, Injectable } from '@nestjs/common';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import { MCP_SERVER_OPTIONS, type ResolvedMcpServerOptions } from '../core/mcp-server.options.js';
import { canonicalJson, sha256Base64url } from '../mrtr/canonical-json.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { McpError } from '../protocol/mcp.error.js';
import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { callerOf } from '../task-store/task-caller.js';
import { isInputRound, type MethodResult } from './method-handler.js';
import { type IdempotentOutcome, McpIdempotencyStore } from './mcp-idempotency.store.js';

/**
 * Reads `params.idempotencyKey` of a `tools/call` (SEP-3182: a sibling of `arguments`): undefined
 * when absent; a non-empty string, else -32602.
 */
export function idempotencyKeyOf(params: Record<string, unknown>): string | undefined {
  const key = params['idempotencyKey'];
  if (key === undefined) return undefined;
  if (typeof key !== 'string' || key.length === 0) {
    throw McpError.invalidParams('params.idempotencyKey must be a non-empty string');
  }
  return key;
}

/**
 * Idempotent `tools/call` (SEP-3182, `tools.idempotency`): a call with an `idempotencyKey` first
 * claims the key, per server and caller, in the {@link McpIdempotencyStore}. A repeat of an ended
 * call (same tool, equal arguments as parsed JSON) gets the first call's answer — its result, the
 * task it created, or the error it was refused with — and runs nothing; a repeat while the first
 * still runs is refused at once (`idempotency_key_in_progress`, -32602, HTTP 409 with Retry-After);
 * the key with another tool or other arguments is refused (`idempotency_key_conflict`, -32602).
 */
@Injectable()
export class IdempotentToolCall {
  private readonly server: string;

  constructor(
    private readonly store: McpIdempotencyStore,
    private readonly principals: McpPrincipalSource,
    @Inject(MCP_SERVER_OPTIONS) options: ResolvedMcpServerOptions,
  ) {
    this.server = options.path;
  }

  /**
   * Runs `call`, the `tools/call` of `exchange` whose `idempotencyKey` is `key`, once per key
   * within the store's retention window (see the class). Equal calls are the same tool name and
   * equal arguments as parsed JSON (key order and `1` / `1.0` make no difference).
   */
  async run(exchange: McpExchange, key: string, call: () => Promise<MethodResult>): Promise<MethodResult> {
    const caller = callerOf(exchange, this.principals.resolve(exchange));
    const record = sha256Base64url(`${this.server}\u0000${caller}\u0000${key}`);
    const { name, arguments: args = {} } = exchange.params as { name?: unknown; arguments?: unknown };
    const fingerprint = sha256Base64url(canonicalJson({ tool: name ?? null, arguments: args }));
    const claim = await this.store.claim(record, fingerprint);
    if (claim.kind !== 'run') {
      if (claim.fingerprint !== fingerprint) throw conflict(key);
      if (claim.kind === 'running') throw inProgress(key);
      if ('error' in claim.outcome) {
        const { code, message, data, httpStatus } = claim.outcome.error;
        throw new McpError(code, message, data, httpStatus);
      }
      return claim.outcome.result;
    }
    let outcome: IdempotentOutcome | undefined;
    try {
      const result = await call();
      outcome = worthKeeping(result, exchange) ? { result: result as Record<string, unknown> } : undefined;
      return result;
    } catch (error) {
      if (error instanceof McpError && !exchange.signal.aborted && keptError(error)) {
        const { code, message, data, httpStatus } = error;
        outcome = { error: { code, message, ...(data !== undefined && { data }), httpStatus } };
      }
      throw error;
    } finally {
      await this.store.settle(record, fingerprint, outcome);
    }
  }
}

/**
 * The HTTP statuses of refusals that say "not now, try again" (the server is unavailable or
 * overloaded, e.g. -32051 with 503, or the caller is throttled): nothing ran, so they are not kept.
 */
const TRY_AGAIN = new Set([429, 503]);

/**
 * Whether a refusal is what the call's retries get: not a "try again" (above), and not an internal
 * error (-32603), which says the server failed, not that the call was wrong — keeping it would
 * refuse every retry of the key for the whole retention window.
 */
function keptError(error: McpError): boolean {
  return !TRY_AGAIN.has(error.httpStatus) && error.code !== McpErrorCode.InternalError;
}

/**
 * Whether a call's answer is what its retries get: not a question (multi round-trip: the retry asks
 * it again, SEP-3182 leaves continuations out), and not a tool error of a call its client or the
 * server's shutdown stopped (the retry runs again).
 */
function worthKeeping(result: MethodResult, exchange: McpExchange): boolean {
  if (isInputRound(result)) return false;
  return !(exchange.signal.aborted && (result as { isError?: unknown }).isError === true);
}

function conflict(key: string): McpError {
  return McpError.invalidParams('This idempotencyKey was used with another tool or other arguments', {
    type: 'idempotency_key_conflict',
    idempotencyKey: key,
  });
}

function inProgress(key: string): McpError {
  return new McpError(
    McpErrorCode.InvalidParams,
    'A request with this idempotencyKey is still in progress; retry shortly',
    { type: 'idempotency_key_in_progress', idempotencyKey: key },
    409,
    { 'Retry-After': '1' },
  );
}
