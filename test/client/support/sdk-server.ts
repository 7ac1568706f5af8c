import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

export interface SdkServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * An MCP server built on the official server SDK with its defaults: `createMcpHandler` (a fresh
 * `McpServer` per request; 2026-07-28 requests, and 2025-era ones on its stateless leg) mounted on
 * node:http with `toNodeHandler`. One tool, `multiply`.
 */
export async function startSdkServer(): Promise<SdkServer> {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: 'sdk-upstream', version: '3.1.4' });
    server.registerTool(
      'multiply',
      { description: 'Multiplies two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
      ({ a, b }) => ({ content: [{ type: 'text', text: String(a * b) }] }),
    );
    return server;
  });
  const node = toNodeHandler(handler);
  const server: Server = createServer((req, res) => {
    if (req.url !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    void node(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
