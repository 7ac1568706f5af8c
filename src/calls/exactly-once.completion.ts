import { Inject, Injectable } from '@nestjs/common';
import { MCP_OPTIONS } from '../mcp.module-definition.js';
import type { ResolvedMcpOptions } from '../mcp.options.js';
import { McpFlowStore } from '../mrtr/mcp-flow.store.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import type { MaybePromise } from '../protocol/maybe-promise.js';

/** A flow's lifetime when `mrtr.maxFlowMs` is not set (the codec's default). */
const DEFAULT_MAX_FLOW_MS = 3_600_000;

/**
 * Runs a round of a flow at most once to completion: a round that continues a flow (it carried a
 * requestState) first claims the flow in the {@link McpFlowStore}. When the flow already completed,
 * the recorded result is the answer and the handler does not run; when another copy is running,
 * this one waits for it. A complete result without `isError` is recorded for the flow's lifetime.
 */
@Injectable()
export class ExactlyOnceCompletion {
  private readonly maxFlowMs: number;
  private readonly byDefault: boolean;

  constructor(
    private readonly store: McpFlowStore,
    @Inject(MCP_OPTIONS) options: ResolvedMcpOptions,
  ) {
    this.maxFlowMs = options.mrtr.maxFlowMs ?? DEFAULT_MAX_FLOW_MS;
    this.byDefault = options.mrtr.exactlyOnce ?? false;
  }

  /**
   * `enabled`: the tool's own setting; undefined falls back to `mrtr.exactlyOnce`. Without the gate
   * (or on a first round) the round runs as it is, synchronously when it is.
   */
  run(
    session: ReplaySession,
    enabled: boolean | undefined,
    round: () => MaybePromise<Record<string, unknown>>,
  ): MaybePromise<Record<string, unknown>> {
    if (!(enabled ?? this.byDefault) || !session.isRetry) return round();
    return this.runOnce(session, round);
  }

  private async runOnce(
    session: ReplaySession,
    round: () => MaybePromise<Record<string, unknown>>,
  ): Promise<Record<string, unknown>> {
    const { flowId } = session;
    const expiresAt = session.startedAt + this.maxFlowMs;
    const claim = await this.store.claim(flowId, expiresAt);
    if (claim.kind === 'recorded') return claim.result;
    let completion: Record<string, unknown> | undefined;
    try {
      const result = await round();
      if (result['resultType'] !== 'input_required' && result['isError'] !== true) completion = result;
      return result;
    } finally {
      await this.store.settle(flowId, completion, expiresAt);
    }
  }
}
