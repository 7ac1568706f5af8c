import type { InputRequest, InputResponse } from '../protocol/wire-types.js';

/** One answer of a tools/call, prompts/get or resources/read as the test client saw it. */
export type McpRoundResult = Record<string, unknown> & { resultType: string };

/**
 * One round of a call: either complete (`result`), or input-required with the server's
 * `inputRequests`, answered by `respond(...)`, which sends the retry and resolves to the next round.
 *
 * @publicApi
 */
export class McpCallRound {
  constructor(
    /** The raw result, including `resultType`, `_meta`, and for input-required `requestState`. */
    readonly result: McpRoundResult,
    private readonly retry: (
      inputResponses: Record<string, InputResponse>,
      requestState: string | undefined,
    ) => Promise<McpCallRound>,
  ) {}

  get isComplete(): boolean {
    return this.result.resultType === 'complete';
  }

  /** The questions of an input-required round, by key (empty when complete). */
  get inputRequests(): Record<string, InputRequest> {
    return (this.result['inputRequests'] as Record<string, InputRequest> | undefined) ?? {};
  }

  /** The opaque state the server handed out with this round. */
  get requestState(): string | undefined {
    return this.result['requestState'] as string | undefined;
  }

  /** Sends the retry carrying these answers and this round's requestState, unchanged. */
  respond(inputResponses: Record<string, InputResponse>): Promise<McpCallRound> {
    if (this.isComplete) throw new Error('This round is complete: there is nothing to respond to');
    return this.retry(inputResponses, this.requestState);
  }
}
