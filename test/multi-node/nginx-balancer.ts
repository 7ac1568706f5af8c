import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));

export interface Balancer {
  readonly url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** A real nginx on 127.0.0.1, round-robin over the given upstream ports, buffering off (SSE passes through). */
export async function startNginx(upstreamPorts: number[], path = '/mcp'): Promise<Balancer> {
  if (!NGINX) throw new Error('nginx is not installed: run scripts/ensure-nginx.sh (npm test does it for you)');
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'mocapi-nginx-'));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `daemon off;
master_process off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mcp_nodes {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p};`).join('\n')}
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://mcp_nodes;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_buffering off;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'GET' });
      break;
    } catch {
      if (attempt > 100 || child.exitCode !== null) throw new Error(`nginx did not start: ${stderr}`);
      await delay(50);
    }
  }
  return {
    url: `http://127.0.0.1:${port}${path}`,
    stop: async () => {
      child.kill('SIGQUIT');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
