import { execFile, spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { freePort } from '../support/free-port.js';
import { TestBrowser } from './support/browser.js';
import { startSample, type SampleProcess } from './support/sample-process.js';
import { createTestCa, type TestCa } from './support/test-ca.js';
import { UpstreamIdp } from './support/upstream-idp.js';

// The official conformance suite's authorization-server scenarios (`conformance authorization`),
// against the sample's authorization server: the metadata endpoint, and the authorization-code
// grant, whose browser steps (the upstream login, our consent page) headless Chromium takes. The
// two run together: alone, the code-grant scenario never reads the metadata.

const CLI = createRequire(import.meta.url).resolve('@modelcontextprotocol/conformance/dist/index.js');
const FETCH_NODE = fileURLToPath(new URL('../../scripts/fetch-node.mjs', import.meta.url));

/** The suite needs Node 22 or later: the pinned build, installed into .tools/ on first use, as `npm run conformance` does. */
async function node22(): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [FETCH_NODE, '22']);
  return stdout.trim();
}

let ca: TestCa;
let idp: UpstreamIdp;
let browser: TestBrowser;
let sample: SampleProcess;

beforeAll(async () => {
  ca = createTestCa();
  idp = await UpstreamIdp.start({ redirectUris: ['https://127.0.0.1/unused'], tls: ca });
  browser = await TestBrowser.launch();
  sample = await startSample({ adapter: 'fastify', upstream: idp, caPath: ca.caPath });
  idp.allowRedirectUri(`${sample.origin}/oauth/callback`);
}, 60_000);

afterAll(async () => {
  await sample?.stop();
  await browser?.close();
  await idp?.stop();
  ca?.cleanup();
});

/** Registers the suite's client (a public one, its callback on a loopback port) by DCR. */
async function registerClient(callbackPort: number): Promise<string> {
  const response = await fetch(`${sample.origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'MCP conformance suite',
      redirect_uris: [`http://127.0.0.1:${callbackPort}/callback`],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

it('passes the metadata-endpoint and authorization-code-grant scenarios', async () => {
  const node = await node22();
  const port = await freePort();
  const clientId = await registerClient(port);
  const args = [CLI, 'authorization', '--url', sample.origin, '--client-id', clientId];
  args.push('--resource', sample.staffUrl, '--port', String(port));
  const suite = spawn(node, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  suite.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => suite.once('exit', resolve));
  // The suite prints the authorization URL, then waits for the browser at its callback.
  const authorizationUrl = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no authorization URL printed:\n${output}`)), 30_000);
    suite.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const url = /^(http\S+\/oauth\/authorize\?\S+)$/m.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    });
    suite.once('exit', () => reject(new Error(`the suite exited first:\n${output}`)));
  });
  const signIn = await browser.signIn(authorizationUrl, {
    login: 'ada',
    decision: 'allow',
    upstreamIssuer: idp.issuer,
  });
  expect(signIn.code).toBeTruthy();
  expect(signIn.consent?.text).toContain('MCP conformance suite');
  expect(await exited).toBe(0);
  expect(output).toMatch(/✓ authorization-server-metadata-endpoint: [1-9]\d* passed, 0 failed/);
  expect(output).toMatch(/✓ authorization-code-grant: 1 passed, 0 failed/);
  expect(output).toMatch(/Total: [1-9]\d* passed, 0 failed/);
  expect(output).not.toMatch(/WARNING|FAILURE/);
}, 90_000);
