import { jest } from '@jest/globals';
import type { InputRequest } from '../protocol/wire-types.js';
import { WaitingUpstreamCall } from './waiting-upstream-call.js';

const question = (message: string): InputRequest =>
  ({
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties: {} } },
  }) as InputRequest;

function waitingCall(onEnd: (reusable: boolean) => void = () => undefined): WaitingUpstreamCall {
  return new WaitingUpstreamCall(
    {
      workTimeoutMs: 1000,
      answerTimeoutMs: 5000,
      timedOut: (waitingForAnswer) => new Error(waitingForAnswer ? 'answer late' : 'work late'),
    },
    onEnd,
  );
}

describe('WaitingUpstreamCall', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('walks the questions in order, answers each once, and ends with the result', async () => {
    const ends: boolean[] = [];
    const call = waitingCall((reusable) => ends.push(reusable));
    const first = call.ask(question('Name?'));
    expect(await call.event(0)).toEqual({ kind: 'question', request: question('Name?') });
    call.answer(0, { action: 'accept', content: { name: 'Ann' } });
    call.answer(0, { action: 'accept', content: { name: 'Bob' } });
    expect(await first).toEqual({ action: 'accept', content: { name: 'Ann' } });
    const next = call.event(1);
    call.settle({ kind: 'done', result: { content: [] } });
    expect(await next).toEqual({ kind: 'done', result: { content: [] } });
    // A replayed round walks the same events: the first question again, then the end.
    expect(await call.event(0)).toEqual({ kind: 'question', request: question('Name?') });
    expect(ends).toEqual([true]);
  });

  it('gives up when the upstream works longer than its bound: the signal aborts, not reusable', async () => {
    const ends: boolean[] = [];
    const call = waitingCall((reusable) => ends.push(reusable));
    const event = call.event(0);
    jest.advanceTimersByTime(1000);
    expect(await event).toEqual({ kind: 'failed', error: new Error('work late') });
    expect(call.signal.aborted).toBe(true);
    expect(ends).toEqual([false]);
  });

  it("bounds a question by the answer timeout, not the upstream's", async () => {
    const call = waitingCall();
    const asked = call.ask(question('Name?'));
    asked.catch(() => undefined);
    jest.advanceTimersByTime(4999);
    expect(call.signal.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect(await call.event(1)).toEqual({ kind: 'failed', error: new Error('answer late') });
    await expect(asked).rejects.toThrow('answer late');
  });

  it('counts the first settlement only', async () => {
    const ends: boolean[] = [];
    const call = waitingCall((reusable) => ends.push(reusable));
    call.abandon(new Error('shutting down'));
    call.settle({ kind: 'done', result: {} });
    expect(await call.event(0)).toEqual({ kind: 'failed', error: new Error('shutting down') });
    expect(ends).toEqual([false]);
  });
});
