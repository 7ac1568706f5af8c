import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair } from 'jose';
import { startNginx, type Balancer } from '../multi-node/nginx-balancer.js';
import { freePort } from '../support/free-port.js';
import { type RedisServer, startRedis } from '../support/redis-server.js';
import { TestBrowser } from './support/browser.js';
import { LoopbackRedirectReceiver } from './support/loopback-redirect.js';
import { connectWithSignIn } from './support/mcp-oauth-client.js';
import { killSamples, startSample, type SampleProcess } from './support/sample-process.js';
import { createTestCa, type TestCa } from './support/test-ca.js';
import { UpstreamIdp } from './support/upstream-idp.js';

// Two nodes of the sample behind nginx (round robin, one worker: consecutive requests alternate
// between the nodes), one public origin, the sign-ins kept in Redis, the same cookie keys and
// signing keys on both: every sign-in crosses nodes (registration, authorize, the hop upstream,
// the callback, consent, the code, the token), and a token one node issued works on the other.

let ca: TestCa;
let redis: RedisServer;
let idp: UpstreamIdp;
let browser: TestBrowser;
let receiver: LoopbackRedirectReceiver;
let balancer: Balancer;
const nodes: SampleProcess[] = [];

beforeAll(async () => {
  ca = createTestCa();
  [redis, receiver, browser] = await Promise.all([
    startRedis(),
    LoopbackRedirectReceiver.start(),
    TestBrowser.launch(),
  ]);
  idp = await UpstreamIdp.start({ redirectUris: ['https://127.0.0.1/unused'], tls: ca });
  const ports = [await freePort(), await freePort()];
  balancer = await startNginx(ports);
  const origin = new URL(balancer.url).origin;
  idp.allowRedirectUri(`${origin}/oauth/callback`);
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwks = { keys: [{ ...(await exportJWK(privateKey)), alg: 'ES256', use: 'sig', kid: 'shared-es256' }] };
  const env = {
    MCP_REDIS_URL: redis.url,
    MCP_AUTH_COOKIE_KEYS: randomBytes(32).toString('base64url'),
    MCP_AUTH_SIGNING_JWKS: JSON.stringify(jwks),
  };
  for (const [i, adapter] of (['fastify', 'express'] as const).entries()) {
    nodes.push(
      await startSample({ adapter, upstream: idp, caPath: ca.caPath, port: ports[i], publicUrl: origin, env }),
    );
  }
}, 90_000);

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.stop()));
  killSamples();
  await balancer?.stop();
  await browser?.close();
  await receiver?.stop();
  await idp?.stop();
  await redis?.stop();
  ca?.cleanup();
});

it.each(['dcr', 'cimd'] as const)(
  'a sign-in (%s) that crosses the two nodes completes, and whoami answers on either node',
  async (mode) => {
    const staffUrl = nodes[0]!.staffUrl; // the balancer's
    const metadataServer =
      mode === 'cimd'
        ? await (await import('./support/client-metadata-server.js')).ClientMetadataServer.start({ tls: ca })
        : undefined;
    try {
      const { client } = await connectWithSignIn(staffUrl, {
        mode,
        browser,
        receiver,
        login: 'ada',
        upstreamIssuer: idp.issuer,
        ...(metadataServer && { metadataServer }),
      });
      // Consecutive calls go to one node, then the other.
      for (let i = 0; i < 4; i++) {
        const result = await client.callTool({ name: 'whoami', arguments: {} });
        expect(result.content).toEqual([{ type: 'text', text: 'Signed in as ada' }]);
      }
      await client.close();
    } finally {
      await metadataServer?.stop();
    }
  },
  60_000,
);
