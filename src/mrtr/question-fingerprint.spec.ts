import type { InputRequest } from '../protocol/wire-types.js';
import { canonicalJson, sha256Base64url } from './canonical-json.js';
import { questionFingerprint } from './question-fingerprint.js';

function form(message: string, properties: Record<string, unknown>): InputRequest {
  return {
    method: 'elicitation/create',
    params: { mode: 'form', message, requestedSchema: { type: 'object', properties } },
  } as InputRequest;
}

describe('questionFingerprint', () => {
  it('is the SHA-256 of the canonical JSON, asked once or many times', () => {
    const request = form('Ship where?', { city: { type: 'string' } });
    const expected = sha256Base64url(canonicalJson(request));
    for (let i = 0; i < 3; i++) expect(questionFingerprint(structuredClone(request))).toBe(expected);
  });

  it('does not depend on key order, and tells different questions apart', () => {
    const a = form('Size?', { size: { type: 'string', enum: ['s', 'm'] } });
    const reordered = {
      params: { requestedSchema: { properties: { size: { enum: ['s', 'm'], type: 'string' } }, type: 'object' } },
      method: 'elicitation/create',
    } as unknown as InputRequest;
    (reordered.params as Record<string, unknown>)['message'] = 'Size?';
    (reordered.params as Record<string, unknown>)['mode'] = 'form';
    expect(questionFingerprint(reordered)).toBe(questionFingerprint(a));
    expect(questionFingerprint(form('Size?', { size: { type: 'string', enum: ['s', 'l'] } }))).not.toBe(
      questionFingerprint(a),
    );
  });

  it('still refuses a non-finite number after a question with null at that place was remembered', () => {
    const withNull = form('Pick', { n: { type: 'number', default: null } });
    const withNaN = form('Pick', { n: { type: 'number', default: Number.NaN } });
    expect(JSON.stringify(withNaN)).toBe(JSON.stringify(withNull));
    questionFingerprint(withNull);
    expect(() => questionFingerprint(withNaN)).toThrow(TypeError);
  });

  it('stays right when more questions are asked than it remembers', () => {
    const requests = Array.from({ length: 1500 }, (_, i) => form(`Question ${i}?`, { ok: { type: 'boolean' } }));
    for (const request of requests) questionFingerprint(request);
    for (const request of [requests[0]!, requests[1499]!]) {
      expect(questionFingerprint(request)).toBe(sha256Base64url(canonicalJson(request)));
    }
  });
});
