/**
 * The cancellation of one 2025-era call (`notifications/cancelled`, or the session ending). Most
 * calls are never cancelled and never read their signal, so the AbortController and the signal
 * combined with the connection's are only made when someone asks for them.
 */
export class CallCancellation {
  private controller: AbortController | undefined;
  private combined: AbortSignal | undefined;
  private reason: Error | undefined;

  get cancelled(): boolean {
    return this.reason !== undefined;
  }

  cancel(reason: Error): void {
    this.reason ??= reason;
    this.controller?.abort(reason);
  }

  /** Aborted when the call is cancelled or `base` (the connection's signal) aborts. */
  signal(base: () => AbortSignal): AbortSignal {
    if (!this.combined) {
      this.controller = new AbortController();
      if (this.reason) this.controller.abort(this.reason);
      this.combined = AbortSignal.any([base(), this.controller.signal]);
    }
    return this.combined;
  }
}
