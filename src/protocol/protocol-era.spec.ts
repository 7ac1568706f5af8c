import { classifyEra } from './protocol-era.js';

const claim = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('classifyEra', () => {
  it.each([
    [
      'initialize',
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
      undefined,
    ],
    ['a claim-less tools/call', { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x' } }, '2025-11-25'],
    ['a claim-less request without a header', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, undefined],
    ['a notification', { jsonrpc: '2.0', method: 'notifications/initialized' }, undefined],
    ['a posted result', { jsonrpc: '2.0', id: 7, result: { action: 'accept' } }, undefined],
    ['a posted error', { jsonrpc: '2.0', id: 7, error: { code: -1, message: 'no' } }, undefined],
    [
      'a progress token alone in _meta',
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { _meta: { progressToken: 1 } } },
      undefined,
    ],
  ])('sends %s to the legacy leg', (_label, message, header) => {
    expect(classifyEra(message, header)).toBe('legacy');
  });

  it.each([
    ['a request with the claim', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: claim } }, undefined],
    ['initialize with the claim', { jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: claim } }, undefined],
    [
      'an envelope missing only the claim',
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/clientCapabilities': {} } },
      },
      undefined,
    ],
    ['a claim-less request with a modern header', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, ' 2026-07-28 '],
    ['a claim-less server/discover', { jsonrpc: '2.0', id: 1, method: 'server/discover' }, undefined],
    ['a batch', [{ jsonrpc: '2.0', id: 1, method: 'ping' }], undefined],
    ['not JSON-RPC', { id: 1, method: 'ping' }, undefined],
    ['a method that is not a string', { jsonrpc: '2.0', id: 1, method: 5 }, undefined],
  ])('keeps %s on the modern path', (_label, message, header) => {
    expect(classifyEra(message, header)).toBe('modern');
  });
});
