import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { McpClientModule } from '../client/mcp-client.module.js';
import { MCP_GATEWAY_CONFIG, type McpGatewayOptionsFactory } from './mcp-gateway.module-definition.js';
import { McpGatewayModule } from './mcp-gateway.module.js';
import type { McpGatewayOptions, ResolvedMcpGatewayOptions } from './mcp-gateway.options.js';

@Injectable()
class GatewaySettings {
  prefix = 'wx';
}

@Module({ providers: [GatewaySettings], exports: [GatewaySettings] })
class SettingsModule {}

@Injectable()
class GatewayOptionsFactory implements McpGatewayOptionsFactory {
  createMcpGatewayOptions(): McpGatewayOptions {
    return { upstreams: [{ client: 'weather', prefix: 'weather' }], server: '/mcp/staff/' };
  }
}

/** The gateway's resolved options, as the application's startup makes them. */
async function resolvedBy(gateway: ReturnType<typeof McpGatewayModule.forRootAsync>) {
  const moduleRef = await Test.createTestingModule({
    imports: [McpClientModule.forRoot({ servers: {} }), gateway],
  }).compile();
  try {
    return moduleRef.get<ResolvedMcpGatewayOptions>(MCP_GATEWAY_CONFIG);
  } finally {
    await moduleRef.close();
  }
}

describe('McpGatewayModule.forRootAsync', () => {
  it('takes the options from a factory with injected providers', async () => {
    const resolved = await resolvedBy(
      McpGatewayModule.forRootAsync({
        imports: [SettingsModule],
        inject: [GatewaySettings],
        useFactory: (settings: GatewaySettings) => ({
          upstreams: [{ client: 'weather', prefix: settings.prefix }],
          checkIntervalMs: 500,
        }),
      }),
    );
    expect(resolved.checkIntervalMs).toBe(500);
    expect(resolved.upstreams.map(({ client, prefix }) => ({ client, prefix }))).toEqual([
      { client: 'weather', prefix: 'wx' },
    ]);
  });

  it('takes them from a useClass factory, and checks `server` as forRoot does', async () => {
    const resolved = await resolvedBy(McpGatewayModule.forRootAsync({ useClass: GatewayOptionsFactory }));
    expect(resolved.server).toBe('/mcp/staff');
    expect(resolved.upstreams[0]!.prefix).toBe('weather');
  });

  it.each<[string, McpGatewayOptions, RegExp]>([
    ['a bad prefix', { upstreams: [{ client: 'a', prefix: 'a_b' }] }, /upstreams\[0\]: `prefix` is 1 to 32 letters/],
    ['a server that is not a path', { upstreams: [], server: 'staff' }, /McpGatewayModule: server must be the path/],
  ])('fails the startup on %s, with the error forRoot gives', async (_label, options, message) => {
    await expect(resolvedBy(McpGatewayModule.forRootAsync({ useFactory: async () => options }))).rejects.toThrow(
      message,
    );
    await expect(resolvedBy(McpGatewayModule.forRoot(options))).rejects.toThrow(message);
  });
});
