import { SerializedJson, toWireChunks, toWireJson } from './wire-json.js';

describe('toWireJson', () => {
  it('writes a message without serialized parts as JSON.stringify does', () => {
    const message = { jsonrpc: '2.0', id: 7, result: { text: 'a "quoted" \u0000 value', list: [1, 2] } };
    expect(toWireJson(message)).toBe(JSON.stringify(message));
  });

  it('splices each serialized part in as its own JSON, in place', () => {
    const tools = [{ name: 'a', description: 'x"y' }, { name: 'b' }];
    const message = {
      id: 1,
      result: { tools: new SerializedJson(tools), nextCursor: 'c', more: new SerializedJson([3]) },
    };
    const text = toWireJson(message);
    expect(JSON.parse(text)).toEqual({ id: 1, result: { tools, nextCursor: 'c', more: [3] } });
  });

  it('keeps a string that only looks like a placeholder, and survives a stray JSON.stringify', () => {
    const part = new SerializedJson([1]);
    // Someone else serializing a message with a part leaves it recorded; the next message ignores that.
    const stray = new SerializedJson([9]);
    expect(typeof JSON.parse(JSON.stringify({ stray }))['stray']).toBe('string');
    const message = { text: '\u0000serialized-json:0000', part };
    expect(JSON.parse(toWireJson(message))).toEqual({ text: '\u0000serialized-json:0000', part: [1] });
  });

  it('hands out the pieces around each part, with the part as UTF-8 bytes', () => {
    const part = new SerializedJson([{ name: 'café' }]);
    const chunks = toWireChunks({ id: 1, result: { tools: part } });
    expect(Array.isArray(chunks)).toBe(true);
    expect((chunks as unknown[])[1]).toBe(part.bytes);
    const bytes = Buffer.concat(
      (chunks as Array<string | Buffer>).map((c) => (typeof c === 'string' ? Buffer.from(c) : c)),
    );
    expect(JSON.parse(bytes.toString('utf8'))).toEqual({ id: 1, result: { tools: [{ name: 'café' }] } });
    expect(toWireChunks({ id: 2 })).toBe('{"id":2}');
  });

  it('keeps the value for readers of the message', () => {
    const value = [{ name: 'a' }];
    expect(new SerializedJson(value).value).toBe(value);
  });
});
