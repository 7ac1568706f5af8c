import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { OidcTestProvider } from '../../oauth2/oidc-test-provider.js';

export interface TokenExchangeEndpoint {
  readonly url: string;
  /** Each exchange it answered: the subject and the resource asked for. */
  readonly exchanges: Array<{ sub: string; resource: string }>;
  close(): Promise<void>;
}

/**
 * A token endpoint that implements token exchange (RFC 8693) for one client, beside the test
 * OpenID provider: it verifies the subject token as an access token of that provider for
 * `subjectAudience`, and issues a token for the requested resource, signed with the provider's
 * key, with the subject's `sub` and the client as actor (`act`).
 */
export async function startTokenExchangeEndpoint(
  provider: OidcTestProvider,
  client: { id: string; secret: string },
  subjectAudience: string,
): Promise<TokenExchangeEndpoint> {
  const jwks = createRemoteJWKSet(new URL(provider.jwksUri));
  const exchanges: TokenExchangeEndpoint['exchanges'] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const reply = (status: number, body: object): void => {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      };
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const basic = `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`;
      if (req.headers.authorization !== basic) return reply(401, { error: 'invalid_client' });
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:token-exchange') {
        return reply(400, { error: 'unsupported_grant_type' });
      }
      const resource = form.get('resource');
      if (form.get('subject_token_type') !== 'urn:ietf:params:oauth:token-type:access_token' || !resource) {
        return reply(400, { error: 'invalid_request' });
      }
      jwtVerify(form.get('subject_token') ?? '', jwks, { issuer: provider.issuer, audience: subjectAudience })
        .then(async ({ payload }) => {
          exchanges.push({ sub: String(payload.sub), resource });
          const token = await provider.signAccessToken({
            sub: String(payload.sub),
            aud: resource,
            scope: 'mcp:tools',
            act: { sub: client.id },
          });
          reply(200, {
            access_token: token,
            issued_token_type: 'urn:ietf:params:oauth:token-type:access_token',
            token_type: 'Bearer',
            expires_in: 300,
          });
        })
        .catch(() => reply(400, { error: 'invalid_grant', error_description: 'the subject token is not valid' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`,
    exchanges,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
