import type { ServerResponse } from 'node:http';
import { HttpLegacyChannel } from './legacy-http-channel.js';
import type { ResponseWriter } from './response-writer.js';

describe('HttpLegacyChannel', () => {
  // Its stream's keep-alive comments come from the endpoint's SseKeepAlive (sse-keep-alive.spec.ts,
  // test/sse-keep-alive.e2e-spec.ts: a pushed question waiting behind nginx).
  it('writes notifications and pushed requests on the POST stream', () => {
    const written: string[] = [];
    const writer = {
      notify: (message: { method: string }) => written.push(message.method),
    } as unknown as ResponseWriter;
    const channel = new HttpLegacyChannel({ kind: 'stdio' }, {} as ServerResponse, writer, true);
    channel.notify({ jsonrpc: '2.0', method: 'notifications/progress' });
    channel.request({ jsonrpc: '2.0', id: 1, method: 'elicitation/create' });
    channel.request({ jsonrpc: '2.0', id: 2, method: 'roots/list' });
    expect(written).toEqual(['notifications/progress', 'elicitation/create', 'roots/list']);
    expect(channel.canRequest).toBe(true);
  });

  it('gives one shared prototype getter for the signal, not a getter per channel', () => {
    const a = new HttpLegacyChannel({ kind: 'stdio' }, {} as ServerResponse, {} as ResponseWriter, false);
    expect(Object.getOwnPropertyDescriptor(a, 'signal')).toBeUndefined();
    expect(typeof Object.getOwnPropertyDescriptor(HttpLegacyChannel.prototype, 'signal')?.get).toBe('function');
  });
});
