import { InvalidRequestStateException } from './exceptions/invalid-request-state.exception.js';
import type { RequestStatePayload } from './request-state-payload.js';
import { deserializeRequestState, serializeRequestState } from './request-state-serializer.js';

const payload: RequestStatePayload = {
  method: 'prompts/get',
  target: 'plan-trip',
  argsDigest: 'digest',
  principal: null,
  flowId: 'flow-1',
  issuedAt: 1_700_000_000_500,
  startedAt: 1_700_000_000_000,
  ledger: [
    {
      key: 'elicit-1',
      kind: 'elicitation',
      fingerprint: 'f1',
      answer: { action: 'accept', content: { city: 'Oslo', days: 3, tags: ['a'] } },
    },
    { key: 'elicit-2', kind: 'elicitation', fingerprint: 'f2', answer: { action: 'decline' } },
    { key: 'elicit-3', kind: 'elicitation', fingerprint: 'f3', answer: { action: 'cancel' } },
    { key: 'elicit-4', kind: 'elicitation', fingerprint: 'f4', answer: { action: 'accept' } },
    {
      key: 'sample-5',
      kind: 'sampling',
      fingerprint: 'f5',
      answer: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'x', stopReason: 'endTurn' },
    },
    { key: 'roots-6', kind: 'roots', fingerprint: 'f6', answer: { roots: [] } },
    { key: 'user_name', kind: 'elicitation', fingerprint: 'f7' },
    { key: 'elicit-8', kind: 'elicitation', fingerprint: 'f8' },
    { key: 'budget', kind: 'elicitation', fingerprint: 'f9', answer: { action: 'accept', content: {} } },
  ],
};

describe('request-state serializer', () => {
  it('round-trips every kind of slot and answer', () => {
    expect(deserializeRequestState(serializeRequestState(payload))).toEqual(payload);
  });

  it('is compact: default keys and elicitation wrappers are not written', () => {
    const text = serializeRequestState(payload);
    expect(text).not.toContain('elicit-1');
    expect(text).not.toContain('"action"');
    expect(text).toContain('"user_name"');
    expect(text).toContain('"budget"');
    expect(JSON.parse(text).l[0]).toEqual(['e', 'f1', { city: 'Oslo', days: 3, tags: ['a'] }]);
    expect(JSON.parse(text).l[1]).toEqual(['e', 'f2', 'd']);
    expect(JSON.parse(text).l[6]).toEqual(['e', 'f7', 0, 'user_name']);
    expect(JSON.parse(text).l[7]).toEqual(['e', 'f8']);
  });

  it.each([
    ['not JSON', 'nope'],
    ['an array', '[]'],
    ['null', 'null'],
    ['a missing member', '{"m":"a","t":"b","a":"c","p":null,"i":1,"l":[]}'],
    ['a non-integer time', '{"m":"a","t":"b","a":"c","p":null,"i":1.5,"s":1,"l":[]}'],
    ['a numeric principal', '{"m":"a","t":"b","a":"c","p":7,"i":1,"s":1,"l":[]}'],
    ['a slot that is not an array', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[{}]}'],
    ['an unknown kind', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[["x","f"]]}'],
    ['a prototype kind', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[["constructor","f"]]}'],
    ['a bad action code', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[["e","f","z"]]}'],
    ['a non-object sampling answer', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[["s","f","a"]]}'],
    ['an empty explicit key', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[["e","f",0,""]]}'],
    ['a slot too long', '{"m":"a","t":"b","a":"c","p":null,"i":1,"s":1,"l":[["e","f",0,"k","x"]]}'],
  ])('refuses %s as malformed', (_label, text) => {
    try {
      deserializeRequestState(text);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(InvalidRequestStateException);
      expect((e as InvalidRequestStateException).reason).toBe('malformed');
    }
  });
});
