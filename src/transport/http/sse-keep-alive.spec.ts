import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { SseKeepAlive } from './sse-keep-alive.js';
import { SseStream } from './sse-stream.js';

describe('SseKeepAlive', () => {
  let server: Server;
  let url: string;
  let keepAlive: SseKeepAlive;
  const responses: ServerResponse[] = [];
  const streams: SseStream[] = [];

  beforeEach(async () => {
    keepAlive = new SseKeepAlive(40);
    server = createServer((_req, res) => {
      responses.push(res);
      const sse = new SseStream(res, 1 << 20);
      sse.open();
      sse.comment('open'); // sends the head
      streams.push(sse);
      keepAlive.keep(sse);
      keepAlive.keep(sse); // kept once, however often it is asked
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterEach(async () => {
    for (const res of responses.splice(0)) res.destroy();
    streams.splice(0);
    await new Promise((resolve) => server.close(resolve));
  });

  /** Opens a stream and collects what arrives on it. */
  function open(): Promise<{ text: () => string; close: () => void }> {
    return new Promise((resolve) => {
      const req = request(url, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        resolve({ text: () => text, close: () => req.destroy() });
      });
      req.on('error', () => undefined);
      req.end();
    });
  }

  it('comments on every open stream until it closes, then lets go of it', async () => {
    const [a, b] = [await open(), await open()];
    await delay(200);
    expect(keepAlive.size).toBe(2);
    for (const stream of [a, b]) expect(stream.text().split(': keep-alive\n\n').length - 1).toBeGreaterThanOrEqual(2);

    a.close();
    await delay(100);
    expect(keepAlive.size).toBe(1);
    b.close();
    await delay(100);
    expect(keepAlive.size).toBe(0);
  });

  it('leaves a stream that keeps talking alone, and comments once it falls silent', async () => {
    const stream = await open();
    const talking = setInterval(() => streams[0]!.send({ jsonrpc: '2.0', method: 'tick' }), 10);
    await delay(200);
    clearInterval(talking);
    expect(stream.text()).not.toContain('keep-alive');
    await delay(150);
    expect(stream.text()).toContain(': keep-alive\n\n');
    stream.close();
  });

  it('keeps nothing with an interval of 0', async () => {
    keepAlive = new SseKeepAlive(0);
    const stream = await open();
    await delay(150);
    expect([keepAlive.size, stream.text()]).toEqual([0, ': open\n\n']);
    stream.close();
  });
});
