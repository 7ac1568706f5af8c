import { PassThrough } from 'node:stream';
import { Injectable, Logger } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { McpTool } from '../decorators/mcp-tool.decorator.js';
import { McpModule } from '../mcp.module.js';
import { McpStdioTransport } from '../transport/stdio/mcp-stdio-transport.js';
import { MCP_RATE_LIMITED, McpThrottlerModule } from './index.js';

beforeEach(() => Logger.overrideLogger(false));

@Injectable()
class PingTools {
  @McpTool({ name: 'ping', description: 'Answers pong' })
  ping(): string {
    return 'pong';
  }
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'stdio-test', version: '1.0.0' },
};

describe('rate limiting on stdio', () => {
  let moduleRef: TestingModule;
  let transport: McpStdioTransport;
  beforeAll(async () => {
    moduleRef = await Test.createTestingModule({
      imports: [
        McpModule.forRoot({ name: 'stdio-throttled', version: '1.0.0', http: false }),
        McpThrottlerModule.forRoot([{ name: 'default', limit: 1, ttl: 60_000 }]),
      ],
      providers: [PingTools],
    }).compile();
    await moduleRef.init();
    transport = McpStdioTransport.fromContext(moduleRef);
  });
  afterAll(() => moduleRef.close());

  it('answers the call past the limit with the JSON-RPC error (no HTTP status on stdio)', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    const connection = transport.listen({ input, output });
    for (const id of [1, 2]) {
      const params = { name: 'ping', arguments: {}, _meta: ENVELOPE };
      input.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params })}\n`);
    }
    const deadline = Date.now() + 5000;
    while (text.split('\n').filter(Boolean).length < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const lines = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    const first = lines.find((m) => m.id === 1);
    const second = lines.find((m) => m.id === 2);
    expect(first.result.content).toEqual([{ type: 'text', text: 'pong' }]);
    expect(second).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: MCP_RATE_LIMITED,
        message: expect.stringContaining('Rate limit exceeded'),
        data: { retryAfterMs: expect.any(Number) },
      },
    });
    input.end();
    await connection.closed;
  });
});
