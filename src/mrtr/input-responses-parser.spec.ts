import { McpErrorCode } from '../protocol/mcp-error-codes.js';
import { McpError } from '../protocol/mcp.error.js';
import { parseInputResponses } from './replay-session.js';

describe('parseInputResponses', () => {
  it.each([undefined, null])('reads %p as no answers', (raw) => {
    expect(parseInputResponses(raw)).toBeUndefined();
  });

  it('passes an object of objects through', () => {
    const raw = { user_name: { action: 'accept', content: { name: 'A' } }, extra: {}, bare: Object.create(null) };
    expect(parseInputResponses(raw)).toBe(raw);
    expect(parseInputResponses({})).toEqual({});
  });

  it.each([
    ['an array', [{ action: 'accept' }]],
    ['a string', 'accept'],
    ['a number', 12345],
    ['a boolean', true],
    ['a number value (conformance validate-input)', { user_name: 12345 }],
    ['a string value', { user_name: 'Alice' }],
    ['a null value', { user_name: null }],
    ['an array value', { user_name: [] }],
    ['a Map', new Map([['k', {}]])],
    ['a class instance value', { k: new Date(0) }],
  ])('refuses %s with -32602', (_label, raw) => {
    try {
      parseInputResponses(raw);
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(McpError);
      expect((e as McpError).code).toBe(McpErrorCode.InvalidParams);
      expect((e as McpError).message).toBe('inputResponses must be an object whose values are objects');
      expect((e as McpError).data).toEqual({ reason: 'malformed_input_responses' });
    }
  });
});
