import type { InputRequest, InputResponse } from '../protocol/wire-types.js';

/** What a waiting call has to say at step N: the upstream's Nth question, or how the call ended. */
export type WaitingCallEvent =
  | { readonly kind: 'question'; readonly request: InputRequest }
  | { readonly kind: 'done'; readonly result: Record<string, unknown> }
  | { readonly kind: 'failed'; readonly error: unknown };

interface Question {
  readonly request: InputRequest;
  readonly answer: (response: InputResponse) => void;
  answered: boolean;
}

/**
 * A call to a 2025-era upstream, on a session no other call uses meanwhile, that may stop to ask the user questions
 * (the upstream's pushed `elicitation/create`). The handler of each round of the downstream flow
 * walks its events from the first: the questions already answered are answered again from the
 * ledger (a no-op), the next one unwinds to the downstream client, the end returns. It lives on
 * this node only: a question waits at most `answerTimeoutMs` for its answer, the upstream works at
 * most its `timeoutMs` between questions.
 */
export class WaitingUpstreamCall {
  private readonly questions: Question[] = [];
  private end: WaitingCallEvent | undefined;
  private wake: Array<() => void> = [];
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bounds: {
      /** How long the upstream may work (no question pending) before the call is given up. */
      readonly workTimeoutMs: number;
      /** How long a question may wait for the user's answer. */
      readonly answerTimeoutMs: number;
      /** Why the call was given up, for each bound. */
      readonly timedOut: (waitingForAnswer: boolean) => Error;
    },
    /** The call ended; `reusable`: it completed, so its session may serve another call. */
    private readonly onEnd: (reusable: boolean) => void,
  ) {
    this.arm();
  }

  /** Aborted when the call is given up (timeout, shutdown): pass it to the upstream request. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** The upstream pushed a question: resolves with the user's answer (or never, if the call is given up). */
  ask(request: InputRequest): Promise<InputResponse> {
    return new Promise<InputResponse>((resolve, reject) => {
      this.signal.addEventListener('abort', () => reject(this.signal.reason as Error), { once: true });
      this.questions.push({ request, answer: resolve, answered: false });
      this.arm();
      this.notify();
    });
  }

  /** The upstream request settled (the first settlement counts). */
  settle(event: WaitingCallEvent): void {
    if (this.end) return;
    this.end = event;
    clearTimeout(this.timer);
    this.notify();
    this.onEnd(event.kind === 'done' && !this.controller.signal.aborted);
  }

  /** The Nth event (0-based): waits until the upstream asked its Nth question or ended. */
  async event(index: number): Promise<WaitingCallEvent> {
    for (;;) {
      const question = this.questions[index];
      if (question) return { kind: 'question', request: question.request };
      if (this.end) return this.end;
      await new Promise<void>((resolve) => this.wake.push(resolve));
    }
  }

  /** Gives the upstream the answer to its Nth question (once; a replayed round answers nothing new). */
  answer(index: number, response: InputResponse): void {
    const question = this.questions[index];
    if (!question || question.answered) return;
    question.answered = true;
    this.arm();
    question.answer(response);
  }

  /** Gives up: cancels the upstream request (its session is not used again). */
  abandon(reason: Error): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
    this.settle({ kind: 'failed', error: reason });
  }

  /**
   * (Re)starts the no-progress timer: the user's bound while a question waits for its answer, the
   * upstream's while it works.
   */
  private arm(): void {
    clearTimeout(this.timer);
    if (this.end) return;
    const waitingForAnswer = this.questions.some((question) => !question.answered);
    const { answerTimeoutMs, workTimeoutMs, timedOut } = this.bounds;
    this.timer = setTimeout(
      () => this.abandon(timedOut(waitingForAnswer)),
      waitingForAnswer ? answerTimeoutMs : workTimeoutMs,
    );
    this.timer.unref();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = [];
    for (const resolve of wake) resolve();
  }
}
