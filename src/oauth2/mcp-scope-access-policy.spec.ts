import type { IncomingMessage } from 'node:http';
import type { McpAccessTarget } from '../calls/mcp-access-policy.js';
import { McpHttpChallenge } from '../protocol/mcp-http-challenge.js';
import type { McpExchange } from '../protocol/mcp-exchange.js';
import { resolveMcpOAuth2Options } from './mcp-oauth2.options.js';
import { McpOAuth2PrincipalSource } from './mcp-oauth2-principal-source.js';
import { McpScopeAccessPolicy } from './mcp-scope-access-policy.js';
import { McpScopes } from './mcp-scopes.decorator.js';
import type { McpOAuth2User } from './mcp-oauth2-user.js';

class OrderTools {
  @McpScopes('orders:write')
  place(): void {}

  status(): void {}
}

const config = resolveMcpOAuth2Options({
  issuer: 'https://auth.example.com',
  audience: 'https://mcp.example.com/mcp',
  requiredScopes: ['mcp:tools'],
});
const place: McpAccessTarget = { kind: 'tool', name: 'place', handlerClass: OrderTools, handlerName: 'place' };
const status: McpAccessTarget = { kind: 'tool', name: 'status', handlerClass: OrderTools, handlerName: 'status' };

const user = (sub: string, scopes: string[]): McpOAuth2User => ({ sub, scopes, claims: { sub } });
const overHttp = (reqUser?: unknown): McpExchange =>
  ({
    transport: { kind: 'http', request: { headers: {}, user: reqUser } as unknown as IncomingMessage },
  }) as McpExchange;
const overStdio = { transport: { kind: 'stdio' } } as McpExchange;

const thrown = (fn: () => void): McpHttpChallenge => {
  try {
    fn();
  } catch (error) {
    if (error instanceof McpHttpChallenge) return error;
    throw error;
  }
  throw new Error('expected a challenge');
};

describe('McpScopeAccessPolicy', () => {
  const policy = new McpScopeAccessPolicy(config);

  it('shows and allows a scoped tool to a caller holding its scopes', () => {
    const exchange = overHttp(user('alice', ['mcp:tools', 'orders:write']));
    expect(policy.isVisible(exchange, place)).toBe(true);
    expect(() => policy.assertAllowed(exchange, place)).not.toThrow();
  });

  it('hides a scoped tool from a caller without its scopes and refuses the call with 403', () => {
    const exchange = overHttp(user('bob', ['mcp:tools']));
    expect(policy.isVisible(exchange, place)).toBe(false);
    const challenge = thrown(() => policy.assertAllowed(exchange, place));
    expect(challenge.status).toBe(403);
    expect(challenge.headers['WWW-Authenticate']).toBe(
      'Bearer error="insufficient_scope", error_description="The access token lacks a required scope", ' +
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="mcp:tools orders:write"',
    );
  });

  it('leaves unscoped handlers alone', () => {
    const exchange = overHttp(user('bob', ['mcp:tools']));
    expect(policy.isVisible(exchange, status)).toBe(true);
    expect(() => policy.assertAllowed(exchange, status)).not.toThrow();
  });

  it('fails closed over HTTP when no verified user is on the request', () => {
    expect(policy.isVisible(overHttp(undefined), place)).toBe(false);
    expect(policy.isVisible(overHttp({ name: 'not ours' }), place)).toBe(false);
    expect(thrown(() => policy.assertAllowed(overHttp(undefined), place)).status).toBe(401);
  });

  it('does not apply bearer scopes to stdio, which carries no token', () => {
    expect(policy.isVisible(overStdio, place)).toBe(true);
    expect(() => policy.assertAllowed(overStdio, place)).not.toThrow();
  });
});

describe('McpOAuth2PrincipalSource', () => {
  const source = new McpOAuth2PrincipalSource();

  it('answers the token subject', () => {
    expect(source.resolve(overHttp(user('alice', [])))).toBe('alice');
  });

  it('answers null without a verified user, or over stdio', () => {
    expect(source.resolve(overHttp(undefined))).toBeNull();
    expect(source.resolve(overHttp({ sub: '', scopes: [] }))).toBeNull();
    expect(source.resolve(overHttp({ sub: 'alice' }))).toBeNull();
    expect(source.resolve(overStdio)).toBeNull();
  });
});
