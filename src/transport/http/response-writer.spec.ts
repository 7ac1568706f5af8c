import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { isCallAborted } from '../../protocol/mcp-call-aborted.error.js';
import { disconnectSignal } from './disconnect-signal.js';
import { ResponseWriter } from './response-writer.js';

const BOUND = 256 * 1024;
const PAD = 'x'.repeat(1000);

/** A real HTTP server whose one request is answered by the test, and a client that never reads. */
async function slowReader(): Promise<{ res: ServerResponse; client: Socket; server: Server }> {
  let answer!: (res: ServerResponse) => void;
  const responded = new Promise<ServerResponse>((resolve) => (answer = resolve));
  const server = createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const client = connect(port, '127.0.0.1');
  client.on('error', () => undefined);
  client.write('POST /mcp HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 0\r\n\r\n');
  client.pause();
  return { res: await responded, client, server };
}

const transportOf = (res: ServerResponse) => ({ kind: 'http' as const, request: res.req, clientAddress: '127.0.0.1' });
const log = (i: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { i, PAD } });
const progress = (i: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { i, PAD } });

describe('ResponseWriter on a client that does not read', () => {
  let setup: Awaited<ReturnType<typeof slowReader>>;
  beforeEach(async () => (setup = await slowReader()));
  afterEach(async () => {
    setup.client.destroy();
    await new Promise((resolve) => setup.server.close(resolve));
  });

  it('hands back a drain promise while behind, and aborts the call client-behind past the bound', async () => {
    const { res } = setup;
    const writer = new ResponseWriter(res, transportOf(res), undefined, BOUND);
    const signal = disconnectSignal(res);
    let waited: Promise<void> | undefined;
    let i = 0;
    while (!writer.closed && i < 100_000) {
      const sent = writer.notify(log(i++));
      waited ??= sent ? sent : undefined;
    }
    expect(waited).toBeInstanceOf(Promise);
    expect(signal.aborted).toBe(true);
    expect(isCallAborted(signal.reason) && signal.reason.reason).toBe('client-behind');
    expect(res.destroyed).toBe(true);
    // Written until just past the bound, then dropped: what the server held stayed near it.
    expect(i * PAD.length).toBeLessThan(BOUND + 16 * 1024 * 1024);
    await waited;
  });

  it('keeps no progress while the client is behind', async () => {
    const { res } = setup;
    const writer = new ResponseWriter(res, transportOf(res), undefined, BOUND);
    let i = 0;
    while (!res.writableNeedDrain && i < 100_000) writer.notify(log(i++));
    const backlog = res.writableLength;
    for (let j = 0; j < 1000; j++) expect(writer.notify(progress(j))).toBeUndefined();
    expect(res.writableLength).toBe(backlog);
    expect(writer.closed).toBe(false);
  });

  it('keeps the stream of a client that reads, through one message larger than the bound', async () => {
    const { res, client } = setup;
    let received = 0;
    client.on('data', (chunk: Buffer) => (received += chunk.length));
    client.resume();
    const writer = new ResponseWriter(res, transportOf(res), undefined, BOUND);
    const big = { jsonrpc: '2.0' as const, method: 'notifications/message', params: { data: 'y'.repeat(16 * BOUND) } };
    await writer.notify(big);
    expect(disconnectSignal(res).aborted).toBe(false);
    expect(writer.closed).toBe(false);
    writer.respond(200, { jsonrpc: '2.0', id: 1, result: {} });
    for (let i = 0; i < 100 && received <= 16 * BOUND; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received).toBeGreaterThan(16 * BOUND);
  });

  it('settles the drain promise once the client reads', async () => {
    const { res, client } = setup;
    const writer = new ResponseWriter(res, transportOf(res), undefined, BOUND);
    let pending: void | Promise<void>;
    let i = 0;
    do pending = writer.notify(log(i++));
    while (!pending && i < 100_000);
    expect(pending).toBeInstanceOf(Promise);
    client.resume();
    await pending;
    expect(res.writableNeedDrain).toBe(false);
    expect(disconnectSignal(res).aborted).toBe(false);
  });
});
