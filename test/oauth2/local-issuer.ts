import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/**
 * A minimal token issuer on 127.0.0.1 for unit specs: serves OpenID discovery and a JWKS whose
 * keys a test can add and remove (key rollover), counts the fetches, and signs tokens with any of
 * its keys. For a full OAuth server use {@link OidcTestProvider}.
 */
export class LocalIssuer {
  readonly fetches = { discovery: 0, jwks: 0 };
  /** Replace to serve a different discovery document (e.g. another issuer); null answers 404. */
  discoveryOverride?: Record<string, unknown> | null;
  private readonly keys = new Map<string, { privateKey: CryptoKey; publicJwk: JWK; alg: string }>();

  private constructor(
    private readonly server: Server,
    readonly issuer: string,
  ) {}

  static async start(): Promise<LocalIssuer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const issuer = new LocalIssuer(server, `http://127.0.0.1:${port}`);
    server.on('request', (req, res) => issuer.serve(req.url ?? '/', res));
    return issuer;
  }

  get jwksUri(): string {
    return `${this.issuer}/jwks`;
  }

  /** Adds a signing key to the published JWKS. */
  async addKey(kid: string, alg: 'ES256' | 'RS256' | 'EdDSA' = 'ES256'): Promise<void> {
    const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
    this.keys.set(kid, { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' }, alg });
  }

  removeKey(kid: string): void {
    this.keys.delete(kid);
  }

  /**
   * Signs an access token. Defaults: this issuer, a 5-minute lifetime, `typ: at+jwt`. Pass
   * `exp`/`iat` in claims to override the times, or `null` to leave a claim out.
   */
  async sign(
    claims: Record<string, unknown>,
    options: { kid?: string; signWith?: CryptoKey; alg?: string } = {},
  ): Promise<string> {
    const kid = options.kid ?? [...this.keys.keys()][0];
    const key = kid === undefined ? undefined : this.keys.get(kid);
    const signingKey = options.signWith ?? key?.privateKey;
    if (!signingKey) throw new Error(`LocalIssuer: no key ${kid}`);
    const now = Math.floor(Date.now() / 1000);
    const payload: Record<string, unknown> = { iss: this.issuer, iat: now, exp: now + 300, ...claims };
    for (const [name, value] of Object.entries(payload)) if (value === null) delete payload[name];
    return new SignJWT(payload)
      .setProtectedHeader({
        alg: options.alg ?? key?.alg ?? 'ES256',
        typ: 'at+jwt',
        ...(kid === undefined ? {} : { kid }),
      })
      .sign(signingKey);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private serve(url: string, res: import('node:http').ServerResponse): void {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    if (url === '/.well-known/openid-configuration') {
      this.fetches.discovery++;
      if (this.discoveryOverride === null) return send(404, { error: 'not_found' });
      return send(200, this.discoveryOverride ?? { issuer: this.issuer, jwks_uri: this.jwksUri });
    }
    if (url === '/jwks') {
      this.fetches.jwks++;
      return send(200, { keys: [...this.keys.values()].map((k) => k.publicJwk) });
    }
    send(404, { error: 'not_found' });
  }
}
