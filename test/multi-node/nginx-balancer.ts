import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { freePort } from '../support/free-port.js';

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
/** Answered by nginx itself: the readiness probe never reaches (nor advances the rotation over) the nodes. */
const READY_PATH = '/__balancer_ready';

export interface Balancer {
  readonly url: string;
  /** The nginx.conf it runs, for failure messages. */
  readonly config: string;
  stop(): Promise<void>;
}

export interface BalancerOptions {
  /** The MCP path on the nodes. Default '/mcp'. */
  path?: string;
  /**
   * How nginx picks a node: `round-robin` (default; with two equal nodes and one worker it
   * alternates request by request) or `session-hash` (`hash $http_mcp_session_id consistent;`:
   * every request of a 2025-era session reaches the same node; `initialize`, which carries no
   * session id yet, falls back to round robin).
   */
  balance?: 'round-robin' | 'session-hash';
  /** nginx `proxy_read_timeout`: how long a response may stay silent. Default '1h' (an elicitation waits for a human). */
  readTimeout?: string;
}

/**
 * The upstream block and proxy settings an MCP deployment needs behind nginx; the rest of the
 * config only makes nginx run unprivileged in a temporary directory.
 *
 * Streaming: a 2025-era tool call that elicits is answered as an SSE stream that stays open while
 * the server pushes `elicitation/create` and waits for the client's answer (another POST), so
 * nothing may hold the stream back: no response buffering or caching (`X-Accel-Buffering: no`,
 * which the server sends, would do it too, but a proxy must not depend on it), HTTP/1.1 to the
 * node (chunked responses), and a read timeout longer than a human takes to answer.
 */
export function nginxConfig(dir: string, port: number, upstreamPorts: number[], options: BalancerOptions = {}): string {
  const balance = options.balance ?? 'round-robin';
  return `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
worker_shutdown_timeout 2s;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp_nodes {
${balance === 'session-hash' ? '    hash $http_mcp_session_id consistent;\n' : ''}${upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location = ${READY_PATH} {
      return 204;
    }
    location / {
      proxy_pass http://mcp_nodes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
      proxy_cache off;
      proxy_read_timeout ${options.readTimeout ?? '1h'};
      proxy_send_timeout 1h;
    }
  }
}
`;
}

/** A real nginx on 127.0.0.1 in front of the given upstream ports (round robin unless told otherwise), buffering off. */
export async function startNginx(upstreamPorts: number[], options: BalancerOptions = {}): Promise<Balancer> {
  if (!NGINX) throw new Error('nginx is not installed: run scripts/ensure-test-servers.sh (npm test does it for you)');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mocapi-nginx-'));
  const config = nginxConfig(dir, port, upstreamPorts, options);
  writeFileSync(join(dir, 'nginx.conf'), config);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let attempt = 0; ; attempt++) {
    try {
      const probe = await fetch(`http://127.0.0.1:${port}${READY_PATH}`);
      if (probe.status === 204) break;
    } catch {
      // not listening yet
    }
    if (attempt > 100 || child.exitCode !== null) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`nginx did not start: ${stderr}`);
    }
    await delay(50);
  }
  return {
    url: `http://127.0.0.1:${port}${options.path ?? '/mcp'}`,
    config,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGQUIT');
        await Promise.race([exited, delay(5000, undefined, { ref: false })]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
