import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpClientError } from './mcp-client.error.js';
import { MAX_TOKEN_RESPONSE_BYTES, requestToken } from './token-endpoint.js';

/** A token endpoint on loopback whose answer each test decides; `written` counts what it sent. */
class TokenEndpoint {
  answer: (res: ServerResponse) => void = (res) => res.end();
  written = 0;
  closedEarly = false;
  private readonly server: Server = createServer((req, res) => {
    req.resume();
    res.on('close', () => (this.closedEarly = !res.writableFinished));
    this.answer(res);
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/token`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Streams `bytes` of a JSON string, chunk by chunk, as long as the client reads. */
  flood(res: ServerResponse, bytes: number): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(16 * 1024, 'a');
    res.write('{"access_token":"');
    const next = (): void => {
      while (this.written < bytes) {
        this.written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', next);
      }
      res.end('"}');
    };
    next();
  }
}

describe('requestToken', () => {
  const endpoint = new TokenEndpoint();
  let url: string;
  const client = () => ({ tokenEndpoint: url, clientId: 'gateway', clientSecret: 's3cret' });

  beforeAll(async () => {
    url = await endpoint.start();
  });
  afterAll(() => endpoint.close());

  it('reads an ordinary token answer', async () => {
    endpoint.answer = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ access_token: 'abc', expires_in: 3600, token_type: 'Bearer' }));
    };
    const before = Date.now();
    const issued = await requestToken('weather', client(), { grant_type: 'client_credentials' }, 2000);
    expect(issued.token).toBe('abc');
    expect(issued.refreshAt).toBeGreaterThanOrEqual(before + 3_570_000);
  });

  it('stops reading an answer past its bound: invalid-response, the rest never sent', async () => {
    endpoint.written = 0;
    endpoint.answer = (res) => endpoint.flood(res, 50 * 1024 * 1024);
    const error = await requestToken('weather', client(), { grant_type: 'client_credentials' }, 5000).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(McpClientError);
    expect(error).toMatchObject({ server: 'weather', failure: 'invalid-response' });
    expect((error as Error).message).toContain(`larger than ${MAX_TOKEN_RESPONSE_BYTES} bytes`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(endpoint.closedEarly).toBe(true);
    expect(endpoint.written).toBeLessThan(10 * 1024 * 1024);
  });

  it('names a refusal by its OAuth error', async () => {
    endpoint.answer = (res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'invalid_client', error_description: 'bad secret' }));
    };
    await expect(requestToken('weather', client(), { grant_type: 'client_credentials' }, 2000)).rejects.toMatchObject({
      failure: 'unauthorized',
      message: expect.stringContaining('invalid_client: bad secret'),
    });
  });
});
