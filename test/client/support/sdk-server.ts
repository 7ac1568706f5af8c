import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveMcpOnLoopback } from '../../support/serve-mcp-on-loopback.js';

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
  const listening = await serveMcpOnLoopback(node);
  return {
    url: listening.url,
    close: async () => {
      await handler.close();
      await listening.close();
    },
  };
}
