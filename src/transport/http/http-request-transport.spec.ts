import type { IncomingMessage } from 'node:http';
import type { McpTransportInfo } from '../../protocol/mcp-exchange.js';
import { HttpRequestTransport } from './http-request-transport.js';

const request = { headers: {} } as IncomingMessage;

describe('HttpRequestTransport', () => {
  it("is an HTTP transport whose client address is the adapter's ip, asked once, on first read", () => {
    let reads = 0;
    const adapterRequest = {
      get ip() {
        reads++;
        return '203.0.113.7';
      },
    };
    const transport: McpTransportInfo = new HttpRequestTransport(request, adapterRequest);
    expect(reads).toBe(0);
    expect(transport).toMatchObject({ kind: 'http', request });
    expect(transport.kind === 'http' && transport.clientAddress).toBe('203.0.113.7');
    expect(transport.kind === 'http' && transport.clientAddress).toBe('203.0.113.7');
    expect(reads).toBe(1);
  });

  it('keeps an address the adapter could not tell (a closed connection) as undefined, without asking again', () => {
    let reads = 0;
    const transport = new HttpRequestTransport(request, {
      get ip() {
        reads++;
        return reads === 1 ? undefined : '10.0.0.1';
      },
    });
    expect(transport.clientAddress).toBeUndefined();
    expect(transport.clientAddress).toBeUndefined();
    expect(reads).toBe(1);
  });
});
