import { defaultSlotKey } from './request-state-payload.js';

describe('defaultSlotKey', () => {
  it('names a slot after its kind and 1-based ordinal', () => {
    expect(defaultSlotKey('elicitation', 1)).toBe('elicit-1');
    expect(defaultSlotKey('sampling', 2)).toBe('sample-2');
    expect(defaultSlotKey('roots', 13)).toBe('roots-13');
  });
});
