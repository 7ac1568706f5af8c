import { build } from 'esbuild';
import { type IncomingMessage, type Server, type ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';

/** One POST the host's client made through the proxy. */
export interface ProxiedPost {
  readonly method: string;
  readonly protocolVersionHeader: string | undefined;
}

export interface TestHostServer {
  /** The host page: `${url}?era=2025&args=...`. */
  readonly url: string;
  readonly posts: ProxiedPost[];
  close(): Promise<void>;
}

/** The test host's script, bundled for the browser the way the sample's apps are (esbuild). */
export async function buildTestHost(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./host/test-host.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    write: false,
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text.replaceAll('</script', '<\\/script');
}

/**
 * Serves the host page on 127.0.0.1 and passes `/mcp` through to the MCP server unchanged
 * (streams included), so the page's client speaks to the server from its own origin.
 */
export async function startTestHost(mcpUrl: string, script: string): Promise<TestHostServer> {
  const target = new URL(mcpUrl);
  const posts: ProxiedPost[] = [];
  const page = `<!doctype html><html><head><meta charset="utf-8"><title>mocapi test host</title>
<style>body{font-family:system-ui,sans-serif;margin:16px;background:#f3f1ee}iframe{width:560px;height:360px;border:0;background:#fff}iframe.bordered{border:1px solid #bbb;border-radius:8px}</style>
</head><body><h1 style="font-size:16px">mocapi test host</h1><div id="view"></div><script type="module">${script}</script></body></html>`;

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith('/mcp')) return proxy(req, res);
    if (req.url === '/' || req.url?.startsWith('/?')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
      return;
    }
    res.writeHead(404).end();
  });

  function proxy(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.method === 'POST') {
        let method = 'unreadable';
        try {
          const message = JSON.parse(body.toString('utf8')) as { method?: string };
          method = message.method ?? 'response';
        } catch {
          // recorded as unreadable
        }
        const header = req.headers['mcp-protocol-version'];
        posts.push({ method, protocolVersionHeader: Array.isArray(header) ? header[0] : header });
      }
      const upstream = request(
        { host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', () => res.headersSent || res.writeHead(502).end());
      res.on('close', () => upstream.destroy());
      upstream.end(body);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
