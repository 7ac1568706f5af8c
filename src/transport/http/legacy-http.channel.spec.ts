import type { ServerResponse } from 'node:http';
import { jest } from '@jest/globals';
import { HttpLegacyChannel, KEEP_ALIVE_MS } from './legacy-http.channel.js';
import type { ResponseWriter } from './response-writer.js';

describe('HttpLegacyChannel', () => {
  afterEach(() => jest.useRealTimers());

  it('writes notifications and pushed requests, keeps the stream alive from the first push until closed', () => {
    jest.useFakeTimers();
    const written: string[] = [];
    const writer = {
      notify: (message: { method: string }) => written.push(message.method),
      comment: (text: string) => written.push(`: ${text}`),
    } as unknown as ResponseWriter;
    const channel = new HttpLegacyChannel({ kind: 'stdio' }, {} as ServerResponse, writer, true);
    channel.notify({ jsonrpc: '2.0', method: 'notifications/progress' });
    jest.advanceTimersByTime(KEEP_ALIVE_MS * 2);
    expect(written).toEqual(['notifications/progress']);
    channel.request({ jsonrpc: '2.0', id: 1, method: 'elicitation/create' });
    channel.request({ jsonrpc: '2.0', id: 2, method: 'roots/list' });
    jest.advanceTimersByTime(KEEP_ALIVE_MS * 2);
    channel.close();
    jest.advanceTimersByTime(KEEP_ALIVE_MS * 2);
    expect(written).toEqual([
      'notifications/progress',
      'elicitation/create',
      'roots/list',
      ': keep-alive',
      ': keep-alive',
    ]);
    expect(channel.canRequest).toBe(true);
  });

  it('gives one shared prototype getter for the signal, not a getter per channel', () => {
    const a = new HttpLegacyChannel({ kind: 'stdio' }, {} as ServerResponse, {} as ResponseWriter, false);
    expect(Object.getOwnPropertyDescriptor(a, 'signal')).toBeUndefined();
    expect(typeof Object.getOwnPropertyDescriptor(HttpLegacyChannel.prototype, 'signal')?.get).toBe('function');
  });
});
