import { McpModule } from '@mocapi/nestjs';
import { McpOAuth2Module } from '@mocapi/nestjs/oauth2';
import { McpTestClient, McpTestError } from '@mocapi/nestjs/testing';
import { OrderTools } from './order.tools';

describe('@mocapi/nestjs/oauth2 (CommonJS, NestJS 11, Jest 29 + ts-jest compiling jose 6)', () => {
  it('refuses a call without a bearer token with HTTP 401', async () => {
    const mcp = await McpTestClient.start({
      imports: [
        McpModule.forRoot({ name: 'orders', version: '1.0.0' }),
        McpOAuth2Module.forRoot({
          issuer: 'http://127.0.0.1:9',
          jwksUri: 'http://127.0.0.1:9/jwks',
          audience: 'http://127.0.0.1/mcp',
        }),
      ],
      providers: [OrderTools],
    });
    try {
      const error = await mcp.callTool('placeOrder', { item: 'tea', quantity: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(McpTestError);
      expect((error as McpTestError).status).toBe(401);
    } finally {
      await mcp.close();
    }
  });
});
