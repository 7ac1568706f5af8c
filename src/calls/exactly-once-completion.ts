import { Inject, Injectable } from '@nestjs/common';
import { McpFlowStore } from '../mrtr/mcp-flow.store.js';
import { isInputRound, type MethodResult } from './method-handler.js';
import type { ReplaySession } from '../mrtr/replay-session.js';
import { MCP_MRTR_OPTIONS, type ResolvedMcpMrtrOptions } from '../mrtr/mcp-mrtr.options.js';

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
    @Inject(MCP_MRTR_OPTIONS) mrtr: ResolvedMcpMrtrOptions,
  ) {
    this.maxFlowMs = mrtr.maxFlowMs;
    this.byDefault = mrtr.exactlyOnce;
  }

  /**
   * Whether a round of `session` runs through {@link run}: the tool's own setting (`enabled`;
   * undefined falls back to `mrtr.exactlyOnce`), and only for a round that continues a flow.
   */
  guards(session: ReplaySession, enabled: boolean | undefined): boolean {
    return (enabled ?? this.byDefault) && session.isRetry;
  }

  /** Runs `round` once for the flow of `session` (see {@link guards} for when to). */
  async run(session: ReplaySession, round: () => Promise<MethodResult>): Promise<MethodResult> {
    const { flowId } = session;
    const expiresAt = session.startedAt + this.maxFlowMs;
    const claim = await this.store.claim(flowId, expiresAt);
    if (claim.kind === 'recorded') return claim.result;
    let completion: MethodResult | undefined;
    try {
      const result = await round();
      if (!isInputRound(result) && (result as { isError?: unknown }).isError !== true) completion = result;
      return result;
    } finally {
      await this.store.settle(flowId, completion as Record<string, unknown> | undefined, expiresAt);
    }
  }
}
