import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../support/free-port.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const NODE_ARGS = [
  '--import',
  fileURLToPath(new URL('../../stdio/swc-register.mjs', import.meta.url)),
  fileURLToPath(new URL('../../../sample/main.ts', import.meta.url)),
];

export interface SampleProcessOptions {
  readonly adapter: 'express' | 'fastify';
  /** The upstream IdP the staff sign in at (`MCP_AUTH_UPSTREAM_*`). */
  readonly upstream: { readonly issuer: string; readonly clientId: string; readonly clientSecret: string };
  /** The test CA file (`NODE_EXTRA_CA_CERTS`): the child trusts the HTTPS upstream and CIMD server. */
  readonly caPath: string;
  /** `MCP_AUTH_ALLOW_PRIVATE_CLIENT_METADATA=1`: CIMD documents on 127.0.0.1 are fetched. Default true. */
  readonly allowPrivateClientMetadata?: boolean;
  /** Default 30 s. */
  readonly timeoutMs?: number;
  /** The port it listens on. Default: a free one. */
  readonly port?: number;
  /** `MCP_PUBLIC_URL`, when it is not the process's own origin (a load balancer's, say). */
  readonly publicUrl?: string;
  /** More environment (`MCP_REDIS_URL`, `MCP_AUTH_COOKIE_KEYS`, `MCP_AUTH_SIGNING_JWKS`, …). */
  readonly env?: Readonly<Record<string, string>>;
}

/** The sample application, running as a child process with sign-in on `/mcp/staff`. */
export interface SampleProcess {
  readonly adapter: 'express' | 'fastify';
  /** `http://127.0.0.1:<port>`: the issuer of its authorization server (`MCP_PUBLIC_URL`). */
  readonly origin: string;
  /** `${origin}/mcp/staff`: the protected MCP server, the audience of its tokens. */
  readonly staffUrl: string;
  /** Everything it printed so far. */
  output(): string;
  /** Stops it (SIGTERM, then SIGKILL after 10 s) and waits for the exit. */
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();

/**
 * Starts `sample/main.ts` as a child process (as `npm start` would, through SWC) with its staff
 * server protected by the authorization server (`MCP_AUTH_UPSTREAM_ISSUER` and the rest), on a port
 * picked first (the public URL is its issuer, so it is known before start). A child because only a
 * process's start can give it a CA (`NODE_EXTRA_CA_CERTS`). Resolves once it prints that it is ready.
 *
 * ```ts
 * const app = await startSample({ adapter: 'express', upstream: idp, caPath: ca.caPath });
 * idp.allowRedirectUri(`${app.origin}/oauth/callback`);
 * await app.stop();
 * ```
 */
export async function startSample(options: SampleProcessOptions): Promise<SampleProcess> {
  const port = options.port ?? (await freePort());
  const origin = options.publicUrl ?? `http://127.0.0.1:${port}`;
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, NODE_ARGS, {
    cwd: ROOT,
    env: {
      ...env,
      NODE_EXTRA_CA_CERTS: options.caPath,
      HOST: '127.0.0.1',
      PORT: String(port),
      MCP_ADAPTER: options.adapter,
      MCP_PUBLIC_URL: origin,
      MCP_STATE_SECRETS: randomBytes(32).toString('base64url'),
      MCP_AUTH_UPSTREAM_ISSUER: options.upstream.issuer,
      MCP_AUTH_UPSTREAM_CLIENT_ID: options.upstream.clientId,
      MCP_AUTH_UPSTREAM_CLIENT_SECRET: options.upstream.clientSecret,
      MCP_AUTH_ALLOW_PRIVATE_CLIENT_METADATA: options.allowPrivateClientMetadata === false ? '' : '1',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the sample (${options.adapter}) did not start:\n${output}`)),
      options.timeoutMs ?? 30_000,
    );
    const check = () => {
      if (!/MCP server ready at/.test(output)) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.off('exit', exited);
      resolve();
    };
    const exited = (code: number | null, signal: string | null) => {
      clearTimeout(timer);
      reject(new Error(`the sample (${options.adapter}) exited (${code ?? signal}) before it was ready:\n${output}`));
    };
    child.stdout!.on('data', check);
    child.once('exit', exited);
  });
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    adapter: options.adapter,
    origin,
    staffUrl: `${origin}/mcp/staff`,
    output: () => output,
    stop: async () => {
      if (!alive()) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Kills whatever sample processes a failed suite left running. */
export function killSamples(): void {
  for (const child of running) child.kill('SIGKILL');
}
