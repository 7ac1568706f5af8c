import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  McpServer,
  WebStandardStreamableHTTPServerTransport,
  acceptedContent,
  createMcpHandler,
  inputRequired,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { serveMcpOnLoopback } from '../../support/serve-mcp-on-loopback.js';

export interface SdkElicitingServer {
  readonly url: string;
  /** How many times the `book` handler ran. */
  runs(): number;
  close(): Promise<void>;
}

const nameSchema = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };
const timeSchema = { type: 'object' as const, properties: { time: { type: 'string' as const } }, required: ['time'] };

/**
 * An MCP server built on the official server SDK, both eras: 2026-07-28 requests through
 * `createMcpHandler` (its `book` tool answers `input_required` twice, its state in `requestState`),
 * 2025-era ones through a sessionful `WebStandardStreamableHTTPServerTransport` (`book` pushes two
 * `elicitation/create` with `elicitInput` and waits), routed by `isLegacyRequest`.
 */
export async function startSdkElicitingServer(): Promise<SdkElicitingServer> {
  let runs = 0;
  const build = (): McpServer => {
    const server = new McpServer({ name: 'sdk-eliciting', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.registerTool(
      'book',
      { description: 'Books a table, asking for a name and then a time', inputSchema: z.object({}) },
      async (_args, ctx) => {
        runs++;
        if (ctx.mcpReq.envelope === undefined) {
          const who = await ctx.mcpReq.elicitInput({
            mode: 'form',
            message: 'Your name?',
            requestedSchema: nameSchema,
          });
          const name = String(who.content?.['name']);
          const when = await ctx.mcpReq.elicitInput({
            mode: 'form',
            message: `When, ${name}?`,
            requestedSchema: timeSchema,
          });
          return { content: [{ type: 'text', text: `Booked for ${name} at ${String(when.content?.['time'])}` }] };
        }
        const state = ctx.mcpReq.requestState() as string | undefined;
        const name = state
          ? (JSON.parse(state) as { name: string }).name
          : acceptedContent(ctx.mcpReq.inputResponses, 'name')?.['name'];
        if (typeof name !== 'string') {
          return inputRequired({
            inputRequests: { name: inputRequired.elicit({ message: 'Your name?', requestedSchema: nameSchema }) },
          });
        }
        const time = acceptedContent(ctx.mcpReq.inputResponses, 'time')?.['time'];
        if (typeof time !== 'string') {
          return inputRequired({
            inputRequests: { time: inputRequired.elicit({ message: `When, ${name}?`, requestedSchema: timeSchema }) },
            requestState: JSON.stringify({ name }),
          });
        }
        return { content: [{ type: 'text', text: `Booked for ${name} at ${time}` }] };
      },
    );
    return server;
  };
  const modern = createMcpHandler(build, { legacy: 'reject' });
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const legacy = async (request: Request): Promise<Response> => {
    const id = request.headers.get('mcp-session-id');
    let transport = id ? sessions.get(id) : undefined;
    if (!transport) {
      if (id) return new Response('unknown session', { status: 404 });
      transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport!),
      });
      transport.onclose = () => {
        if (transport?.sessionId) sessions.delete(transport.sessionId);
      };
      await build().connect(transport);
    }
    return transport.handleRequest(request);
  };
  const node = toNodeHandler({
    fetch: async (request) => ((await isLegacyRequest(request.clone())) ? legacy(request) : modern.fetch(request)),
  });
  const listening = await serveMcpOnLoopback(node);
  return {
    url: listening.url,
    runs: () => runs,
    close: async () => {
      await modern.close();
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await listening.close();
    },
  };
}
