/** What {@link McpFlowStore.claim} decided for one final-round candidate. */
export type FlowClaim =
  /** Nobody has completed the flow and nobody is running it: run the handler, then `settle`. */
  | { readonly kind: 'run' }
  /** The flow already completed: answer with its recorded result, do not run the handler. */
  | { readonly kind: 'recorded'; readonly result: Record<string, unknown> };

/**
 * Where exactly-once completion is recorded: the first completion of each elicitation flow (by its
 * `flowId`), so a replayed or concurrent final round gets the recorded result instead of running
 * the handler again. An abstract class, so DI can swap it: the default keeps records in this
 * process's memory (bounded); `McpModule.forRoot({ flowStore })` or an integration module (a shared
 * store for several nodes) replaces it.
 *
 * @publicApi
 */
export abstract class McpFlowStore {
  /**
   * Claims the right to complete `flowId`. While another caller holds the claim, waits until it
   * settles; then answers with its recorded result, or with `run` when it recorded nothing.
   * `expiresAt` (ms epoch) is when the flow's tokens die: no record is needed past it.
   */
  abstract claim(flowId: string, expiresAt: number): Promise<FlowClaim>;

  /**
   * Releases the claim: `result` is the completion to record (undefined when the round asked
   * another question or failed, so a later round may run).
   */
  abstract settle(flowId: string, result: Record<string, unknown> | undefined, expiresAt: number): Promise<void>;
}
