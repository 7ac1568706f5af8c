import { McpError } from '../../protocol/mcp.error.js';
import { headerValue } from './mcp-headers.js';

describe('headerValue', () => {
  it('trims plain values and joins repeated ones', () => {
    expect(headerValue({ 'mcp-name': '  add ' }, 'mcp-name')).toBe('add');
    expect(headerValue({ 'x-list': ['a', 'b'] }, 'x-list')).toBe('a,b');
    expect(headerValue({}, 'mcp-name')).toBeUndefined();
    expect(headerValue({ 'mcp-name': '=?plain' }, 'mcp-name')).toBe('=?plain');
  });

  it('decodes the =?base64?...?= form and refuses bad base64 or UTF-8', () => {
    const encoded = `=?base64?${Buffer.from('héllo').toString('base64')}?=`;
    expect(headerValue({ 'mcp-name': encoded }, 'mcp-name')).toBe('héllo');
    expect(() => headerValue({ 'mcp-name': '=?base64?a===?=' }, 'mcp-name')).toThrow(McpError);
    expect(() =>
      headerValue({ 'mcp-name': `=?base64?${Buffer.from([0xff]).toString('base64')}?=` }, 'mcp-name'),
    ).toThrow('not valid base64-encoded UTF-8');
  });
});
