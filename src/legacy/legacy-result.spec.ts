import { toLegacyResult } from './legacy-result.js';

describe('toLegacyResult', () => {
  it('drops resultType, cache hints and the serverInfo stamp, keeping the handler’s own _meta', () => {
    const modern = {
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'private',
      tools: [{ name: 'a' }],
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' }, 'app/trace': 'x' },
    };
    expect(toLegacyResult(modern)).toEqual({ tools: [{ name: 'a' }], _meta: { 'app/trace': 'x' } });
  });

  it('drops a _meta left empty', () => {
    expect(
      toLegacyResult({ resultType: 'complete', content: [], _meta: { 'io.modelcontextprotocol/serverInfo': {} } }),
    ).toEqual({ content: [] });
  });
});
