import { McpError } from '../../protocol/mcp.error.js';
import { headerValue, verifyParamHeaders } from './mcp-headers.js';

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

describe('verifyParamHeaders', () => {
  const params = [{ property: 'region', header: 'Region' }];
  const refusal = (headers: Record<string, string>, args: Record<string, unknown>): unknown => {
    try {
      verifyParamHeaders(headers, params, args);
      return undefined;
    } catch (error) {
      return error instanceof McpError ? [error.code, error.httpStatus] : error;
    }
  };

  it('refuses an argument no header can carry with -32020, without calling its toString or valueOf', () => {
    for (const region of [
      { toString: 1 },
      { toString: 1, valueOf: 1 },
      {},
      ['eu'],
      [['eu']],
      { valueOf: () => 'eu' },
    ]) {
      for (const headers of [{ 'mcp-param-region': '[object Object]' }, { 'mcp-param-region': 'eu' }, {}] as Array<
        Record<string, string>
      >) {
        expect(refusal(headers, { region })).toEqual([-32020, 400]);
      }
    }
  });

  it('compares strings, integers and booleans as a client mirrors them, and reads only own arguments', () => {
    expect(refusal({ 'mcp-param-region': 'eu' }, { region: 'eu' })).toBeUndefined();
    expect(refusal({ 'mcp-param-region': '3' }, { region: 3 })).toBeUndefined();
    expect(refusal({ 'mcp-param-region': 'false' }, { region: false })).toBeUndefined();
    expect(refusal({}, { region: null })).toBeUndefined();
    const valueOf = [{ property: 'valueOf', header: 'Value-Of' }];
    expect(() => verifyParamHeaders({}, valueOf, {})).not.toThrow();
  });
});
