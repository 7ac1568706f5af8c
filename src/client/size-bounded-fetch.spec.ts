import { McpClientError } from './mcp-client.error.js';
import { eventCounter, responseCutOffScope, sizeBoundedFetch } from './size-bounded-fetch.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body that hands out `chunks` one read at a time, and says how many were read and whether it was cancelled. */
function source(chunks: readonly string[]) {
  const state = { read: 0, cancelled: undefined as unknown };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (state.read === chunks.length) return controller.close();
        controller.enqueue(encode(chunks[state.read++]!));
      },
      cancel(reason) {
        state.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** The bounded fetch over one answer made of `chunks`, served as `contentType`. */
function fetchOf(chunks: readonly string[], contentType: string, maxBytes: number) {
  const body = source(chunks);
  const fetchImpl = (async () =>
    new Response(body.stream, { status: 200, headers: { 'content-type': contentType } })) as typeof fetch;
  return { fetch: sizeBoundedFetch('wx', maxBytes, fetchImpl), state: body.state };
}

describe('sizeBoundedFetch', () => {
  it('passes an answer within the bound through whole, with its status and headers', async () => {
    const { fetch, state } = fetchOf(['{"jsonrpc":', '"2.0"}'], 'application/json', 20);
    const response = await fetch('http://upstream/mcp');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"jsonrpc":"2.0"}');
    expect(state.cancelled).toBeUndefined();
  });

  it('cuts a JSON answer off at the chunk that passes the bound: the rest is not read, the source is cancelled', async () => {
    const { fetch, state } = fetchOf(
      ['x'.repeat(8), 'x'.repeat(8), 'x'.repeat(8), 'x'.repeat(8)],
      'application/json',
      20,
    );
    const response = await fetch('http://upstream/mcp');
    const error = await response.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({
      server: 'wx',
      failure: 'too-large',
      message: 'MCP server "wx": an answer is larger than 20 bytes (maxResponseBytes)',
    });
    expect(state.read).toBe(3);
    expect(state.cancelled).toBe(error);
  });

  it('counts each SSE event on its own: many small events pass, one large event is cut off', async () => {
    const small = Array.from({ length: 50 }, (_, i) => `event: message\ndata: {"n":${i}}\n\n`);
    const many = fetchOf(small, 'text/event-stream', 40);
    expect(await (await many.fetch('http://upstream/mcp')).text()).toBe(small.join(''));

    const large = fetchOf(
      ['data: {"n":1}\n\n', 'data: "', 'x'.repeat(30), 'x'.repeat(30), '"\n\n'],
      'text/event-stream; charset=utf-8',
      40,
    );
    const error = await (await large.fetch('http://upstream/mcp')).text().catch((e: unknown) => e);
    expect(error).toMatchObject({ failure: 'too-large' });
    expect(large.state.read).toBe(4);
  });

  it('tells the request being sent, once its answer is cut off', async () => {
    const told: number[] = [];
    const { fetch } = fetchOf(['x'.repeat(30)], 'application/json', 20);
    const response = await responseCutOffScope.run(
      (maxBytes) => told.push(maxBytes),
      () => fetch('http://upstream/mcp'),
    );
    expect(told).toEqual([]);
    await response.text().catch(() => undefined);
    expect(told).toEqual([20]);
  });

  it('leaves an answer without a body as it is', async () => {
    const empty = new Response(null, { status: 202 });
    const fetch = sizeBoundedFetch('wx', 10, (async () => empty) as typeof fetch);
    expect(await fetch('http://upstream/mcp')).toBe(empty);
  });
});

describe('eventCounter', () => {
  const passes = (maxBytes: number, chunks: readonly string[]): boolean => {
    const count = eventCounter(maxBytes);
    return chunks.map((chunk) => count(encode(chunk))).some(Boolean);
  };

  it('ends an event at a blank line of LF, CRLF or CR line ends, also split across chunks', () => {
    for (const end of ['\n', '\r\n', '\r']) {
      const event = `data: ${'x'.repeat(10)}${end}${end}`;
      expect(passes(event.length, [event, event, event])).toBe(false);
      const split = event.length - 1;
      expect(passes(event.length, [event.slice(0, split), event.slice(split) + event])).toBe(false);
    }
  });

  it('counts the lines of one event together, and the event that passes the bound even when it ends in the same chunk', () => {
    expect(passes(25, ['data: 0123456789\ndata: 0123456789\n\n'])).toBe(true);
    expect(passes(40, ['data: 0123456789\ndata: 0123456789\n\n'])).toBe(false);
    expect(passes(10, ['data: 0123456789\n\ndata: 1\n\n'])).toBe(true);
  });
});
