import type { ResolvedMcpOptions } from '../mcp.options.js';
import { META_SERVER_INFO } from '../protocol/meta-keys.js';
import { NOT_CACHED, ResultStamp } from './result-stamp.js';

const options = {
  name: 'srv',
  version: '1.2.3',
  cache: { ttlMs: 5000, scope: 'public' },
} as unknown as ResolvedMcpOptions;
const serverInfo = { name: 'srv', version: '1.2.3' };

describe('ResultStamp', () => {
  const stamp = new ResultStamp(options);

  it('stamps a copy, keeping the key order and never touching the original', () => {
    const tag = Symbol('tag');
    const original = { content: [], resultType: 'whatever', isError: true, [tag]: 1 };
    const stamped = stamp.stamp(original);
    expect(Object.keys(stamped)).toEqual(['content', 'resultType', 'isError', '_meta']);
    expect(stamped).toEqual({
      content: [],
      resultType: 'complete',
      isError: true,
      [tag]: 1,
      _meta: { [META_SERVER_INFO]: serverInfo },
    });
    expect((stamped as Record<symbol, unknown>)[tag]).toBe(1);
    expect(original.resultType).toBe('whatever');
    expect(original).not.toHaveProperty('_meta');
  });

  it('merges an own _meta with serverInfo, in a copy', () => {
    const own = { note: 'x' };
    const stamped = stamp.stamp({ contents: [], _meta: own }, true);
    expect(stamped).toEqual({
      contents: [],
      _meta: { note: 'x', [META_SERVER_INFO]: serverInfo },
      resultType: 'complete',
      ttlMs: 5000,
      cacheScope: 'public',
    });
    expect(own).toEqual({ note: 'x' });
    expect(stamp.stamp({ contents: [] }, NOT_CACHED)).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('keeps an own "__proto__" key as a key, never as the prototype', () => {
    const parsed = JSON.parse('{"content":[],"__proto__":{"polluted":true},"_meta":{"__proto__":{"p":1}}}') as object;
    const stamped = stamp.stamp(parsed);
    expect(Object.getPrototypeOf(stamped)).toBe(Object.prototype);
    expect((stamped as { polluted?: unknown }).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(stamped))).toEqual(
      JSON.parse(
        `{"content":[],"__proto__":{"polluted":true},"_meta":{"__proto__":{"p":1},"${META_SERVER_INFO}":` +
          `{"name":"srv","version":"1.2.3"}},"resultType":"complete"}`,
      ),
    );
    expect(Object.getPrototypeOf(stamped['_meta'])).toBe(Object.prototype);
  });

  it('leaves input-required and task results their own resultType', () => {
    expect(stamp.stamp({ resultType: 'input_required', inputRequests: {} })).toEqual({
      resultType: 'input_required',
      inputRequests: {},
      _meta: { [META_SERVER_INFO]: serverInfo },
    });
    expect(stamp.stamp({ resultType: 'task', taskId: 't' })['resultType']).toBe('task');
    expect(stamp.stamp({ content: [] })['resultType']).toBe('complete');
  });

  it('puts cache hints on complete results only, the given ones over the server option', () => {
    expect(stamp.stamp({ resultType: 'input_required', inputRequests: {} }, true)).not.toHaveProperty('ttlMs');
    expect(stamp.stamp({ content: [] })).not.toHaveProperty('ttlMs');
    expect(stamp.stamp({ skills: [] }, { ttlMs: 60_000, scope: 'public' })).toMatchObject({
      resultType: 'complete',
      ttlMs: 60_000,
      cacheScope: 'public',
    });
  });
});
