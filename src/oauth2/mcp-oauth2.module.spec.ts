import { Inject, Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import passport from 'passport';
import { McpAccessPolicy } from '../calls/mcp-access-policy.js';
import {
  INTEGRATION_ACCESS_POLICY,
  INTEGRATION_HTTP_AUTHENTICATOR,
  INTEGRATION_PRINCIPAL_SOURCE,
} from '../core/mcp.tokens.js';
import { McpPrincipalSource } from '../core/mcp-principal-source.js';
import { McpHttpAuthenticator } from '../transport/http/mcp-http-authenticator.js';
import { McpBearerAuthenticator } from './mcp-bearer-authenticator.js';
import { MCP_OAUTH2_STRATEGY } from './mcp-oauth2.constants.js';
import type { McpOAuth2OptionsFactory } from './mcp-oauth2.module-definition.js';
import { McpOAuth2Module } from './mcp-oauth2.module.js';
import type { McpOAuth2Options } from './mcp-oauth2.options.js';
import { McpOAuth2PrincipalSource } from './mcp-oauth2-principal-source.js';
import { McpOAuth2Strategy } from './mcp-oauth2.strategy.js';
import { McpScopeAccessPolicy } from './mcp-scope-access-policy.js';
import { ProtectedResourceMetadataRoutes } from './protected-resource-metadata.js';
import { McpScopes } from './mcp-scopes.decorator.js';

const OPTIONS: McpOAuth2Options = {
  issuer: 'https://auth.example.com',
  audience: 'https://mcp.example.com/mcp',
  requiredScopes: ['mcp:tools'],
};

/** Stands for the core module: it can inject the slots only because McpOAuth2Module is global. */
@Injectable()
class SlotReader {
  constructor(
    @Inject(INTEGRATION_PRINCIPAL_SOURCE) readonly principal: unknown,
    @Inject(INTEGRATION_ACCESS_POLICY) readonly policy: unknown,
    @Inject(INTEGRATION_HTTP_AUTHENTICATOR) readonly authenticator: unknown,
  ) {}
}
@Module({ providers: [SlotReader] })
class ConsumerModule {}

@Injectable()
class ScopedTools {
  @McpScopes('orders:write')
  place(): void {}
}

describe('McpOAuth2Module', () => {
  it('fills the three integration slots with its own classes, visible from other modules', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [ConsumerModule, McpOAuth2Module.forRoot(OPTIONS)],
    }).compile();
    const { principal, policy, authenticator } = moduleRef.get(SlotReader);
    expect(principal).toBeInstanceOf(McpOAuth2PrincipalSource);
    expect(principal).toBeInstanceOf(McpPrincipalSource);
    expect(policy).toBeInstanceOf(McpScopeAccessPolicy);
    expect(policy).toBeInstanceOf(McpAccessPolicy);
    expect(authenticator).toBeInstanceOf(McpBearerAuthenticator);
    expect(authenticator).toBeInstanceOf(McpHttpAuthenticator);
    expect(principal).toBe(moduleRef.get(McpOAuth2PrincipalSource));
    expect(Reflect.getMetadata('__module:global__', McpOAuth2Module)).toBe(true);
  });

  it('registers its strategy with passport under MCP_OAUTH2_STRATEGY', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [McpOAuth2Module.forRoot(OPTIONS)] }).compile();
    const registered = (passport as unknown as { _strategy(name: string): unknown })._strategy(MCP_OAUTH2_STRATEGY);
    expect(registered).toBe(moduleRef.get(McpOAuth2Strategy));
  });

  it('takes options from forRootAsync with a factory and injected dependencies', async () => {
    @Module({ providers: [{ provide: 'ISSUER', useValue: 'https://login.example.com' }], exports: ['ISSUER'] })
    class ConfigModule {}
    const moduleRef = await Test.createTestingModule({
      imports: [
        McpOAuth2Module.forRootAsync({
          imports: [ConfigModule],
          inject: ['ISSUER'],
          useFactory: async (issuer: string) => ({ issuer, audience: 'https://mcp.example.com/mcp' }),
        }),
      ],
    }).compile();
    expect(moduleRef.get(ProtectedResourceMetadataRoutes).metadata.authorization_servers).toEqual([
      'https://login.example.com',
    ]);
  });

  it('takes options from forRootAsync with useClass', async () => {
    class OptionsFactory implements McpOAuth2OptionsFactory {
      createMcpOAuth2Options(): McpOAuth2Options {
        return { ...OPTIONS, resourceDocumentation: 'https://docs.example.com/mcp' };
      }
    }
    const moduleRef = await Test.createTestingModule({
      imports: [McpOAuth2Module.forRootAsync({ useClass: OptionsFactory })],
    }).compile();
    expect(moduleRef.get(ProtectedResourceMetadataRoutes).metadata.resource_documentation).toBe(
      'https://docs.example.com/mcp',
    );
  });

  it('fails at startup with a message saying what to set', async () => {
    await expect(
      Test.createTestingModule({
        imports: [McpOAuth2Module.forRoot({ audience: 'https://mcp.example.com/mcp' })],
      }).compile(),
    ).rejects.toThrow(/issuer: set the token issuer/);
    await expect(
      Test.createTestingModule({
        imports: [
          McpOAuth2Module.forRootAsync({
            useFactory: () => ({ issuer: 'https://auth.example.com' }) as McpOAuth2Options,
          }),
        ],
      }).compile(),
    ).rejects.toThrow(/audience: set it to the canonical URI/);
  });

  it('advertises the required scopes plus every @McpScopes found, never offline_access', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [McpOAuth2Module.forRoot(OPTIONS)],
      providers: [ScopedTools],
    }).compile();
    expect(moduleRef.get(ProtectedResourceMetadataRoutes).metadata).toEqual({
      resource: 'https://mcp.example.com/mcp',
      authorization_servers: ['https://auth.example.com'],
      scopes_supported: ['mcp:tools', 'orders:write'],
      bearer_methods_supported: ['header'],
    });
  });
});
