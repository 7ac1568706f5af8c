import type { Type } from '@nestjs/common';
import { AnonymousPrincipalSource, McpPrincipalSource } from '../../src/core/mcp-principal-source.js';
import { McpOAuth2PrincipalSource } from '../../src/oauth2/mcp-oauth2-principal-source.js';
import { OidcTestProvider } from './oidc-test-provider.js';
import {
  HeaderPrincipalSource,
  handlerRuns,
  ordersAppModule,
  type OrdersAppOptions,
} from './support/orders-app.fixture.js';
import { mcp } from './support/oauth2-http.js';
import { freePort } from '../support/free-port.js';
import { startApp, type RunningApp } from '../support/start-app.js';

/**
 * Which McpPrincipalSource binds requestState: the application's own > the oauth2 module's > the
 * anonymous default, whatever order McpModule and McpOAuth2Module are imported in. Each case is
 * checked on the resolved provider and on the wire: a flow started as one caller is retried as
 * another (per the token and per the application's `x-app-user` header), and only a change of
 * the principal the winning source sees is refused.
 */
type Caller = { token?: 'alice' | 'bob'; appUser?: string };

interface Case {
  readonly label: string;
  readonly options: Omit<OrdersAppOptions, 'oauth2'> & { oauth2: boolean };
  readonly winner: Type<McpPrincipalSource>;
  /** Start as `start`; a retry as `same` must succeed, one as `other` (if any) must be refused. */
  readonly start: Caller;
  readonly same: Caller;
  readonly other?: Caller;
}

const CASES: Case[] = [
  {
    label: 'core only: the anonymous default',
    options: { oauth2: false },
    winner: AnonymousPrincipalSource,
    start: { appUser: 'alice' },
    same: { appUser: 'bob' }, // everyone is null: nothing tells callers apart
  },
  ...[false, true].map((oauth2First): Case => ({
    label: `core + oauth2 (${oauth2First ? 'oauth2 imported first' : 'core imported first'}): the token subject`,
    options: { oauth2: true, oauth2First },
    winner: McpOAuth2PrincipalSource,
    start: { token: 'alice', appUser: 'carol' },
    same: { token: 'alice', appUser: 'dave' },
    other: { token: 'bob', appUser: 'carol' },
  })),
  {
    label: 'core + application source: the application source',
    options: { oauth2: false, appPrincipalSource: HeaderPrincipalSource },
    winner: HeaderPrincipalSource,
    start: { appUser: 'carol' },
    same: { appUser: 'carol' },
    other: { appUser: 'dave' },
  },
  ...[false, true].map((oauth2First): Case => ({
    label: `core + oauth2 + application source (${oauth2First ? 'oauth2 imported first' : 'core imported first'}): the application source`,
    options: { oauth2: true, oauth2First, appPrincipalSource: HeaderPrincipalSource },
    winner: HeaderPrincipalSource,
    start: { token: 'alice', appUser: 'carol' },
    same: { token: 'bob', appUser: 'carol' },
    other: { token: 'alice', appUser: 'dave' },
  })),
];

describe('McpPrincipalSource precedence', () => {
  let provider: OidcTestProvider;

  beforeAll(async () => {
    provider = await OidcTestProvider.start();
  });
  afterAll(() => provider.stop());

  describe.each(CASES)('$label', ({ options, winner, start, same, other }) => {
    let server: RunningApp;
    const tokens: Record<string, string> = {};

    beforeAll(async () => {
      const port = await freePort();
      const audience = `http://127.0.0.1:${port}/mcp`;
      const module = ordersAppModule({
        ...options,
        oauth2: options.oauth2 ? { issuer: provider.issuer, audience, requiredScopes: ['mcp:tools'] } : undefined,
      });
      server = await startApp(module, 'express', { port });
      for (const subject of ['alice', 'bob'])
        tokens[subject] = await provider.clientCredentials(subject, { resource: audience });
    });
    afterAll(() => server?.close());
    beforeEach(() => {
      handlerRuns.length = 0;
    });

    const as = (caller: Caller): { token?: string; headers: Record<string, string> } => ({
      ...(caller.token ? { token: tokens[caller.token] } : {}),
      headers: caller.appUser ? { 'x-app-user': caller.appUser } : {},
    });

    it(`resolves ${winner.name}`, () => {
      const resolved = server.app.get(McpPrincipalSource);
      expect(resolved).toBeInstanceOf(winner);
      expect(resolved.constructor).toBe(winner);
    });

    it('binds requestState to the principal that source sees', async () => {
      const call = { name: 'confirm', arguments: {} };
      const first = await mcp(server.url, 'tools/call', call, as(start));
      expect(first.body.result?.resultType).toBe('input_required');
      const retry = {
        ...call,
        requestState: first.body.result.requestState,
        inputResponses: { 'elicit-1': { action: 'accept', content: { ok: true } } },
      };

      if (other) {
        const refused = await mcp(server.url, 'tools/call', retry, as(other));
        expect(refused.body.error).toMatchObject({ code: -32602, data: { reason: 'principal_mismatch' } });
        expect(handlerRuns).toHaveLength(1);
      }
      const accepted = await mcp(server.url, 'tools/call', retry, as(same));
      expect(accepted.body.result).toMatchObject({
        resultType: 'complete',
        content: [{ type: 'text', text: 'confirmed' }],
      });
    });
  });
});
