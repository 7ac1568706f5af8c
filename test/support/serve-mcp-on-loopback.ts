import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A node:http server on 127.0.0.1 answering `/mcp` with `handler` (404 elsewhere). */
export interface LoopbackMcpServer {
  readonly url: string;
  /** Drops every connection and stops listening. */
  close(): Promise<void>;
}

/** Serves `handler` (an official SDK server through `toNodeHandler`, say) at `/mcp` on a free port. */
export async function serveMcpOnLoopback(
  handler: (req: IncomingMessage, res: ServerResponse) => unknown,
): Promise<LoopbackMcpServer> {
  const server: Server = createServer((req, res) => {
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    void handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
