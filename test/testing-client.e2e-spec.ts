import type { IncomingMessage } from 'node:http';
import { Global, Injectable, Module } from '@nestjs/common';
import { McpHttpAuthenticator, McpHttpChallenge, McpModule, McpTool } from '../src/index.js';
import { INTEGRATION_HTTP_AUTHENTICATOR } from '../src/core/mcp.tokens.js';
import { McpTestClient, McpTestError } from '../src/testing/index.js';

/** Lets through requests with the right API key; others get a 401 challenge, as an OAuth server would. */
class ApiKeyAuthenticator extends McpHttpAuthenticator {
  async authenticate(req: IncomingMessage): Promise<void> {
    if (req.headers['x-api-key'] !== 'sesame') {
      throw new McpHttpChallenge(
        401,
        { 'www-authenticate': 'ApiKey' },
        { error: 'unauthorized', error_description: 'An API key is required' },
      );
    }
  }
}

@Global()
@Module({
  providers: [{ provide: INTEGRATION_HTTP_AUTHENTICATOR, useClass: ApiKeyAuthenticator }],
  exports: [INTEGRATION_HTTP_AUTHENTICATOR],
})
class ApiKeyModule {}

@Injectable()
class PingTools {
  @McpTool({ description: 'Answers pong' })
  pong(): string {
    return 'pong';
  }
}

const metadata = {
  imports: [ApiKeyModule, McpModule.forRoot({ name: 'keyed', version: '1.0.0' })],
  providers: [PingTools],
};

describe('McpTestClient against a protected server', () => {
  it('sends the headers it is given', async () => {
    const mcp = await McpTestClient.start(metadata, { headers: { 'x-api-key': 'sesame' } });
    try {
      expect((await mcp.callTool('pong')).result['content']).toEqual([{ type: 'text', text: 'pong' }]);
    } finally {
      await mcp.close();
    }
  });

  it('reports an HTTP refusal that is not JSON-RPC with its status and description', async () => {
    const mcp = await McpTestClient.start(metadata);
    try {
      const error = await mcp.callTool('pong').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpTestError);
      expect(error).toMatchObject({ status: 401, message: 'HTTP 401: An API key is required (JSON-RPC 0, HTTP 401)' });
    } finally {
      await mcp.close();
    }
  });
});
