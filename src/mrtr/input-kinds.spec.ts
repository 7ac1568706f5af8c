import type { InputRequest } from '../protocol/wire-types.js';
import { copyInputResponse, inputKind, normalizeInputRequest, readInputResponse } from './input-kinds.js';

const formRequest: InputRequest = {
  method: 'elicitation/create',
  params: {
    message: 'Name?',
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  },
};

describe('input kinds', () => {
  it('maps methods to ledger kinds and refuses anything else', () => {
    expect(inputKind(formRequest)).toBe('elicitation');
    expect(inputKind({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } })).toBe('sampling');
    expect(inputKind({ method: 'roots/list' })).toBe('roots');
    expect(() => inputKind({ method: 'tools/call' } as unknown as InputRequest)).toThrow(/Not an MRTR input request/);
    expect(() => inputKind({ method: 'toString' } as unknown as InputRequest)).toThrow(TypeError);
  });

  it('always says mode form on form elicitations and gives roots params', () => {
    expect(normalizeInputRequest(formRequest)).toEqual({
      method: 'elicitation/create',
      params: { ...formRequest.params, mode: 'form' },
    });
    expect(formRequest.params).not.toHaveProperty('mode');
    const url: InputRequest = {
      method: 'elicitation/create',
      params: { mode: 'url', message: 'Go', url: 'https://x.example' },
    };
    expect(normalizeInputRequest(url)).toBe(url);
    expect(normalizeInputRequest({ method: 'roots/list' })).toEqual({ method: 'roots/list', params: {} });
  });

  it('reads a well-formed answer per kind', () => {
    expect(readInputResponse(formRequest, { action: 'accept', content: { name: 'A', x: 1 } })).toEqual({
      action: 'accept',
      content: { name: 'A' },
    });
    expect(readInputResponse(formRequest, { action: 'cancel' })).toEqual({ action: 'cancel' });
    expect(readInputResponse({ method: 'roots/list' }, { roots: [] })).toEqual({ roots: [] });
    const answer = { role: 'assistant', content: [{ type: 'text', text: 'a' }], model: 'm' };
    expect(
      readInputResponse({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }, answer),
    ).toEqual(answer);
    expect(
      readInputResponse(
        { method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } },
        { ...answer, content: [] },
      ),
    ).toEqual({
      reason: 'not a valid answer to sampling/createMessage',
    });
  });

  it('keeps only the fields each kind defines', () => {
    const sampling = { method: 'sampling/createMessage' as const, params: { messages: [], maxTokens: 1 } };
    const junk = 'x'.repeat(60_000);
    expect(
      readInputResponse(sampling, {
        role: 'assistant',
        content: { type: 'text', text: 'a' },
        model: 'm',
        stopReason: 'endTurn',
        junk,
      }),
    ).toEqual({
      role: 'assistant',
      content: { type: 'text', text: 'a' },
      model: 'm',
      stopReason: 'endTurn',
    });
    expect(
      readInputResponse({ method: 'roots/list' }, { roots: [{ uri: 'file:///a', name: 'A', junk }], junk }),
    ).toEqual({ roots: [{ uri: 'file:///a', name: 'A' }] });
  });

  it('refuses an answer larger than the bound, saying so', () => {
    const big = { role: 'assistant', content: { type: 'text', text: 'y'.repeat(20_000) }, model: 'm' };
    expect(
      readInputResponse({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 1 } }, big, 16_384),
    ).toEqual({
      reason: 'larger than 16384 characters of JSON (mrtr.maxAnswerChars)',
    });
  });

  it('copies answers so that changing a copy changes nothing the ledger holds', () => {
    const answers = [
      { action: 'accept', content: { name: 'Ada', age: 36, vip: true, tags: ['a', 'b'] } },
      { action: 'decline' },
      { action: 'accept', content: { nested: { deep: ['x'] } } },
      { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' },
      { roots: [{ uri: 'file:///a' }] },
    ] as unknown as Parameters<typeof copyInputResponse>[0][];
    for (const answer of answers) {
      const before = structuredClone(answer);
      const copy = copyInputResponse(answer) as unknown as Record<string, unknown>;
      expect(copy).toEqual(answer);
      const content = copy['content'] as Record<string, unknown> | undefined;
      if (content !== undefined) {
        for (const value of Object.values(content)) {
          if (Array.isArray(value)) value.push('changed');
          else if (typeof value === 'object' && value !== null) (value as Record<string, unknown>)['changed'] = 1;
        }
        content['added'] = 'changed';
      }
      copy['action'] = 'cancel';
      expect(answer).toEqual(before);
    }
  });
});
